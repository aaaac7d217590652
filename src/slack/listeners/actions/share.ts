/**
 * "Share to channel": posts the card for everyone (always redacted, without Reveal or
 * Share), then replaces the clicker's ephemeral copy with a short confirmation.
 *
 * The click's response_url can post in any conversation the command was used in (it bypasses
 * channel membership); when it cannot (expired after 30 minutes or 5 uses), chat.postMessage
 * is tried; when that fails too (not_in_channel, channel_not_found, a DM between people), the
 * user is told what to do.
 */
import type { RespondArguments } from '@slack/bolt';
import { ACTION } from '../../../views/actions.js';
import { errorMessage, shareConfirmation } from '../../../views/feedback.js';
import { outgoing } from '../../../views/format.js';
import type { SlackMessage } from '../../../views/message.js';
import { cannotShareMessage } from '../../../views/share.js';
import { alreadyShared, withSharedBy } from '../../../views/sharedBy.js';
import { itemCardAnswer, logFailure } from '../../answers.js';
import { acceptClick, actionBase, type ClickArgs, itemRequestOf, refOf } from '../../clicks.js';
import { contactCardAnswer } from '../../contactAnswers.js';
import { privateReply, sendSafely } from '../../delivery.js';
import type { ContactDeps, DeliveryDeps, ItemDeps, ShareDeps } from '../../deps.js';
import { type Actor, slackErrorCode } from '../../payloads.js';
import { type ShareRecord, sharePress } from '../../shares.js';

async function postForEveryone(
  deps: DeliveryDeps & ItemDeps & ContactDeps,
  args: ClickArgs,
  actor: Actor,
  message: SlackMessage,
  threadTs: string | undefined,
): Promise<{ ok: true; ts?: string | undefined } | { ok: false; reason: string }> {
  // A card opened from an answer in a thread is shared in that thread.
  const thread = threadTs === undefined ? {} : { thread_ts: threadTs };
  const publicMessage: RespondArguments = {
    response_type: 'in_channel',
    replace_original: false,
    ...thread,
    ...outgoing(message),
  };
  if (await sendSafely(deps.logger, args.respond, publicMessage)) return { ok: true };
  if (!actor.channelId) return { ok: false, reason: 'channel_not_found' };
  try {
    const posted = await args.client.chat.postMessage({
      channel: actor.channelId,
      ...thread,
      ...outgoing(message),
    });
    // Its ts lets Remove delete it with chat.delete once the click's response_url has expired.
    return { ok: true, ts: posted.ts };
  } catch (error) {
    const reason = slackErrorCode(error) ?? 'unknown';
    deps.logger.warn({ reason, channel: actor.channelId }, 'could not share a card');
    return { ok: false, reason };
  }
}

/** Share on an item card or a contact card (the action id says which). */
export function shareClick(deps: DeliveryDeps & ItemDeps & ContactDeps & ShareDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const kind = actionBase(args) === ACTION.itemShare ? 'i' : 'c';
    const click = await acceptClick(deps, args, kind);
    if (!click) return;
    const { actor, state, body } = click;
    // A double press, or the same click arriving twice, posts once (on any replica).
    const press = sharePress(body);
    if (!(await deps.shares.firstPress(press))) {
      const retryNum = args.context.retryNum ?? 0;
      // Slack sending the click again is no press of the person's: the first delivery answers.
      if (retryNum > 0) {
        deps.logger.info({ retry: retryNum }, 'share sent again by Slack: left to the first');
        return;
      }
      deps.logger.info('share pressed again: already under way');
      await sendSafely(deps.logger, args.respond, privateReply(alreadyShared(actor.channelId)));
      return;
    }
    let message: SlackMessage;
    try {
      message =
        state.t === 'i'
          ? // What the user is looking at: the branch page, BOM page and drill-down path.
            await itemCardAnswer(
              deps,
              { ...itemRequestOf(state), shared: true },
              actor,
              args.client,
            )
          : await contactCardAnswer(
              deps,
              {
                ref: refOf(state),
                peoplePage: state.pp,
                allPeople: state.m === 'a',
                peopleWords: state.pf,
                shared: true,
              },
              actor,
              args.client,
            );
    } catch (error) {
      logFailure(deps.logger, 'share', error);
      await deps.shares.release(press);
      await sendSafely(deps.logger, args.respond, privateReply(errorMessage(error)));
      return;
    }
    // Everyone sees who shared it, and the sharer can take it back (Remove).
    const threadTs = state.t === 'i' ? state.th : undefined;
    const shareId = deps.shares.newId();
    const posted = await postForEveryone(
      deps,
      args,
      actor,
      withSharedBy(message, actor.userId, shareId),
      threadTs,
    );
    if (posted.ok) {
      const record: ShareRecord = {
        sharer: actor.userId,
        team: actor.userTeamId,
        channel: actor.channelId,
        ts: posted.ts,
        // The confirmation below replaces the card through this URL; Remove updates it too.
        confirmUrl: body.response_url,
      };
      await deps.shares.save(shareId, record);
    } else {
      await deps.shares.release(press);
    }
    const reply = posted.ok
      ? { replace_original: true, ...shareConfirmation(actor.channelId) }
      : privateReply(cannotShareMessage(posted.reason));
    await sendSafely(deps.logger, args.respond, reply);
  };
}
