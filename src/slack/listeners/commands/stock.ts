import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { checkAccess } from '../../../privacy/access.js';
import { stockHelp } from '../../../views/help.js';
import { withNotices } from '../../../views/notices.js';
import {
  isKnownToBeSlow,
  itemByCodeAnswer,
  itemCardAnswer,
  itemSearchAnswer,
  safely,
  workingLine,
} from '../../answers.js';
import { deliverCommandAnswer } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { parseStockCommand, type StockRequest } from '../../parser.js';
import { acceptCommand, ephemeral } from './common.js';

type StockArgs = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

function describe(request: Exclude<StockRequest, { kind: 'help' }>): string {
  if (request.kind === 'search') return 'Searching items';
  return 'id' in request.ref ? `Looking up item #${request.ref.id}` : `Looking up ${request.token}`;
}

/** `/stock …`: help, an item card (with the search fallback), or a search list. */
export function stockCommand(deps: ListenerDeps) {
  return async ({ command, ack, respond }: StockArgs): Promise<void> => {
    const accepted = await acceptCommand(deps, command, ack, (actor) =>
      checkAccess(deps.access.stock, actor, '/stock'),
    );
    if (!accepted) return;
    const { actor, text } = accepted;
    const parsed = parseStockCommand(text);
    if (!parsed.ok) {
      await ack(ephemeral(stockHelpWithError(deps, parsed.error)));
      return;
    }
    const request = parsed.request;
    if (request.kind === 'help') {
      await ack(ephemeral(withNotices(stockHelp(deps.examples), parsed.notices)));
      return;
    }
    const endpoint = request.kind === 'search' ? 'searchItems' : 'getItem';
    const answer = safely(deps, '/stock', async () => {
      const message =
        request.kind === 'search'
          ? await itemSearchAnswer(deps, request.query, 0, actor)
          : 'id' in request.ref
            ? await itemCardAnswer(deps, { ref: request.ref }, actor)
            : await itemByCodeAnswer(deps, request.ref, request.token, actor);
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

function stockHelpWithError(deps: ListenerDeps, error: string) {
  return withNotices(stockHelp(deps.examples), [error]);
}
