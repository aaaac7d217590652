import type { ErpEndpoint } from '../../../erp/errors.js';
import { contactHelp } from '../../../views/help.js';
import { withNotices } from '../../../views/notices.js';
import type { WorkSubject } from '../../../views/progress.js';
import {
  contactByCodeAnswer,
  contactSearchAnswer,
  isKnownToBeSlow,
  safely,
  workingLine,
} from '../../answers.js';
import { acceptCommand, type CommandArgs } from '../../commands.js';
import { deliverCommandAnswer, ephemeral } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { parseContactCommand } from '../../parser.js';

/** `/contact …`: help, a contact card (redacted; with the search fallback), or a list. */
export function contactCommand(deps: ListenerDeps) {
  return async ({ command, ack, respond, client }: CommandArgs): Promise<void> => {
    const accepted = await acceptCommand(deps, command, ack, 'contact');
    if (!accepted) return;
    const parsed = parseContactCommand(accepted.text);
    if (!parsed.ok) {
      await ack(ephemeral(withNotices(contactHelp(deps.examples), [parsed.error])));
      return;
    }
    const { request, notices } = parsed;
    if (request.kind === 'help') {
      await ack(ephemeral(withNotices(contactHelp(deps.examples), notices)));
      return;
    }
    const { actor } = accepted;
    const endpoint: ErpEndpoint = request.kind === 'contact' ? 'getContact' : 'searchContact';
    const subject: WorkSubject =
      request.kind === 'contact'
        ? { kind: 'record', noun: 'contact', ref: request.ref }
        : { kind: 'search', noun: 'contact' };
    await deliverCommandAnswer({
      ack,
      respond,
      answer: safely(deps.logger, '/contact', async () =>
        withNotices(
          request.kind === 'contact'
            ? await contactByCodeAnswer(deps, request, actor, client)
            : await contactSearchAnswer(deps, request.query, 0, actor),
          notices,
        ),
      ),
      working: () => workingLine(deps, subject, endpoint, actor),
      knownToBeSlow: () => isKnownToBeSlow(deps, endpoint, actor),
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}
