import type { ErpEndpoint } from '../../../erp/errors.js';
import type { SlackUsersApi } from '../../../privacy/revealPolicy.js';
import { stockHelp } from '../../../views/help.js';
import type { SlackMessage } from '../../../views/message.js';
import { withNotices } from '../../../views/notices.js';
import type { WorkSubject } from '../../../views/progress.js';
import {
  isKnownToBeSlow,
  itemByCodeAnswer,
  itemSearchAnswer,
  safely,
  workingLine,
} from '../../answers.js';
import { categoriesAnswer } from '../../catalogueAnswers.js';
import { acceptCommand, type CommandArgs } from '../../commands.js';
import { deliverCommandAnswer, ephemeral } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { parseStockCommand, type StockRequest } from '../../parser.js';
import type { Actor } from '../../payloads.js';

type StockLookup = Exclude<StockRequest, { kind: 'help' }>;

/** `/stock …`: help, an item card (with the search fallback), a search list, or the categories. */
export function stockCommand(deps: ListenerDeps) {
  return async ({ command, ack, respond, client }: CommandArgs): Promise<void> => {
    const accepted = await acceptCommand(deps, command, ack, 'stock');
    if (!accepted) return;
    const parsed = parseStockCommand(accepted.text);
    if (!parsed.ok) {
      await ack(ephemeral(withNotices(stockHelp(deps.examples), [parsed.error])));
      return;
    }
    const { request, notices } = parsed;
    if (request.kind === 'help') {
      await ack(ephemeral(withNotices(stockHelp(deps.examples), notices)));
      return;
    }
    const { actor } = accepted;
    // The categories come from the app's own index: no ERP call to wait for.
    const endpoint: ErpEndpoint = request.kind === 'item' ? 'getItem' : 'searchItems';
    const subject: WorkSubject =
      request.kind === 'item'
        ? { kind: 'record', noun: 'item', ref: request.ref }
        : { kind: 'search', noun: 'item' };
    await deliverCommandAnswer({
      ack,
      respond,
      answer: safely(deps.logger, '/stock', async () =>
        withNotices(await stockAnswer(deps, request, actor, client), notices),
      ),
      working: () => workingLine(deps, subject, endpoint, actor),
      knownToBeSlow: () => isKnownToBeSlow(deps, endpoint, actor),
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}

function stockAnswer(
  deps: ListenerDeps,
  request: StockLookup,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  switch (request.kind) {
    case 'item':
      return itemByCodeAnswer(deps, request, actor, client);
    case 'search':
      return itemSearchAnswer(deps, request.query, 0, actor);
    case 'categories':
      return categoriesAnswer(deps);
  }
}
