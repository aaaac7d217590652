/**
 * "Reveal details": the unredacted phones and e-mails, in an ephemeral message to the
 * clicking user only: never a shared message, never replacing a message (even when the
 * button is clicked on a card others can see). Every outcome writes an audit line.
 */
import { NotFoundError } from '../../../erp/errors.js';
import { revealRefusal } from '../../../privacy/revealPolicy.js';
import { matchingPeople } from '../../../rules/people.js';
import { contactReveal } from '../../../views/contactCard.js';
import { errorMessage, noticeMessage } from '../../../views/feedback.js';
import type { SlackMessage } from '../../../views/message.js';
import { safely } from '../../answers.js';
import { acceptClick, type ClickArgs, labelOf, refOf } from '../../clicks.js';
import { privateReply, sendSafely } from '../../delivery.js';
import type { ContactDeps, DeliveryDeps } from '../../deps.js';

export function revealClick(deps: DeliveryDeps & ContactDeps) {
  return async (args: ClickArgs): Promise<void> => {
    // A press refused before the policy is asked (a tampered or stale value, the command's
    // access lists) is audited too: an auditor needs the refusals most.
    const click = await acceptClick(deps, args, 'c', (refused) => {
      const state = refused.state?.t === 'c' ? refused.state : undefined;
      deps.audit.record({
        ...refused.actor,
        teamId: refused.actor.userTeamId ?? refused.actor.teamId,
        contactCode: state ? labelOf(refOf(state)) : undefined,
        outcome: 'refused',
        reason: refused.reason,
        at: deps.now(),
      });
    });
    if (!click) return;
    const { actor } = click;
    const ref = refOf(click.state);
    // The presser's own team: a Slack Connect partner's press shows their organisation. The
    // payload's until the policy has asked users.info, users.info's from then on.
    let ownTeam = actor.userTeamId ?? actor.teamId;
    const audit = (
      outcome: 'revealed' | 'refused' | 'failed',
      code: string,
      reason?: string,
      people?: number,
    ) =>
      deps.audit.record({
        userId: actor.userId,
        teamId: ownTeam,
        channelId: actor.channelId,
        contactCode: code,
        outcome,
        reason,
        people,
        at: deps.now(),
      });

    const answer = await safely(deps.logger, 'reveal', async (): Promise<SlackMessage> => {
      const decision = await deps.reveal.mayReveal(actor.userId, args.client, {
        userTeamId: click.userTeamId,
      });
      ownTeam = decision.teamId ?? ownTeam;
      if (!decision.allowed) {
        audit('refused', labelOf(ref), decision.reason);
        return noticeMessage(revealRefusal(decision));
      }
      try {
        const fetched = await deps.lookup.getContact(ref, { requester: actor.userId });
        const peopleWords = click.state.pf ?? [];
        const people = matchingPeople(fetched.data.addressbook, peopleWords);
        audit('revealed', fetched.data.code, undefined, people.length);
        return contactReveal({ contact: fetched.data, now: deps.now(), peopleWords, people });
      } catch (error) {
        audit(
          'failed',
          labelOf(ref),
          error instanceof NotFoundError ? 'not_found' : 'lookup_failed',
        );
        return errorMessage(error);
      }
    });
    await sendSafely(deps.logger, args.respond, privateReply(answer));
  };
}
