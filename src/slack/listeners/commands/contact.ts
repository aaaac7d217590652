import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { checkAccess } from '../../../privacy/access.js';
import { contactHelp } from '../../../views/help.js';
import { withNotices } from '../../../views/notices.js';
import {
  contactByCodeAnswer,
  contactCardAnswer,
  contactSearchAnswer,
  isKnownToBeSlow,
  safely,
  workingLine,
} from '../../answers.js';
import { deliverCommandAnswer } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { type ContactRequest, parseContactCommand } from '../../parser.js';
import { acceptCommand, ephemeral } from './common.js';

type ContactArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

function describe(request: Exclude<ContactRequest, { kind: 'help' }>): string {
  if (request.kind === 'search') return 'Searching contacts';
  return 'id' in request.ref
    ? `Looking up contact #${request.ref.id}`
    : `Looking up ${request.token}`;
}

/** `/contact …`: help, a contact card (redacted; with the search fallback), or a list. */
export function contactCommand(deps: ListenerDeps) {
  return async ({ command, ack, respond, client }: ContactArgs): Promise<void> => {
    const accepted = await acceptCommand(deps, command, ack, (actor) =>
      checkAccess(deps.access.contact, actor, '/contact'),
    );
    if (!accepted) return;
    const { actor, text } = accepted;
    const parsed = parseContactCommand(text);
    if (!parsed.ok) {
      await ack(ephemeral(withNotices(contactHelp(deps.examples), [parsed.error])));
      return;
    }
    const request = parsed.request;
    if (request.kind === 'help') {
      await ack(ephemeral(withNotices(contactHelp(deps.examples), parsed.notices)));
      return;
    }
    const endpoint = request.kind === 'search' ? 'searchContact' : 'getContact';
    const answer = safely(deps, '/contact', async () => {
      const message =
        request.kind === 'search'
          ? await contactSearchAnswer(deps, request.query, 0, actor)
          : 'id' in request.ref
            ? await contactCardAnswer(deps, { ref: request.ref }, actor, client)
            : await contactByCodeAnswer(deps, request.ref, request.token, actor, client);
      return withNotices(message, parsed.notices);
    });
    await deliverCommandAnswer({
      ack,
      respond,
      answer,
      working: () => workingLine(deps, describe(request), endpoint),
      knownToBeSlow: () => isKnownToBeSlow(deps, endpoint),
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}
