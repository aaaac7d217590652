/**
 * What `/stock` and `/contact` share: the command accepted (payload, access rules), its text
 * read by the command's grammar (usage help on a problem, help on `help`), then the answer
 * delivered within Slack's three seconds, with a working line when the ERP is slow. A sentence
 * the grammar does not read is answered as a sentence instead.
 */
import type { ErpEndpoint } from '../../../erp/errors.js';
import type { SlackUsersApi } from '../../../privacy/revealPolicy.js';
import { markedAs } from '../../../views/blocks.js';
import { commandNoticeText, commandProblemText } from '../../../views/commandProblems.js';
import type { HelpExamples } from '../../../views/help.js';
import type { SlackMessage } from '../../../views/message.js';
import { withNotices } from '../../../views/notices.js';
import type { WorkSubject } from '../../../views/progress.js';
import { isKnownToBeSlow, safely, workingLine } from '../../answers.js';
import type { ParseResult } from '../../commandScan.js';
import { acceptCommand, type CommandArgs } from '../../commands.js';
import { deliverCommandAnswer, ephemeral } from '../../delivery.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';
import type { Actor } from '../../payloads.js';

export interface LookupCommand<R extends { kind: string }> {
  family: 'stock' | 'contact';
  parse: (text: string) => ParseResult<R>;
  help: (examples?: HelpExamples) => SlackMessage;
  /** The endpoint whose queue the working line reports. */
  endpoint: (request: Exclude<R, { kind: 'help' }>) => ErpEndpoint;
  subject: (request: Exclude<R, { kind: 'help' }>) => WorkSubject;
  /** The answer when the text is a sentence its grammar does not read; else undefined. */
  sentence: (
    text: string,
    request: Exclude<R, { kind: 'help' }>,
    actor: Actor,
    client: SlackUsersApi,
  ) => Promise<SlackMessage | undefined>;
  answer: (
    request: Exclude<R, { kind: 'help' }>,
    actor: Actor,
    client: SlackUsersApi,
  ) => Promise<SlackMessage>;
}

export function lookupCommand<R extends { kind: string }>(
  deps: DeliveryDeps & Pick<ItemDeps, 'lookup'>,
  spec: LookupCommand<R>,
) {
  return async ({ command, ack, respond, client }: CommandArgs): Promise<void> => {
    const accepted = await acceptCommand(deps, command, ack, spec.family);
    if (!accepted) return;
    const parsed = spec.parse(accepted.text);
    const help = spec.help(deps.examples);
    if (!parsed.ok) {
      await ack(
        ephemeral(markedAs(withNotices(help, [commandProblemText(parsed.error)]), 'usage')),
      );
      return;
    }
    const notices = parsed.notices.map(commandNoticeText);
    const request = parsed.request;
    if (!isLookup(request)) {
      await ack(ephemeral(withNotices(help, notices)));
      return;
    }
    const { actor, text } = accepted;
    const endpoint = spec.endpoint(request);
    await deliverCommandAnswer({
      ack,
      respond,
      answer: safely(deps.logger, `/${spec.family}`, async () => {
        const sentence = await spec.sentence(text, request, actor, client);
        return sentence ?? withNotices(await spec.answer(request, actor, client), notices);
      }),
      working: () => workingLine(deps, spec.subject(request), endpoint, actor),
      knownToBeSlow: () => isKnownToBeSlow(deps, endpoint, actor),
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}

/** Not `help`: a request the command answers with a lookup. */
const isLookup = <R extends { kind: string }>(
  request: R,
): request is Exclude<R, { kind: 'help' }> => request.kind !== 'help';
