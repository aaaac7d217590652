import { stockHelp } from '../../../views/help.js';
import { itemByCodeAnswer, itemSearchAnswer } from '../../answers.js';
import { parseStockCommand, type StockRequest } from '../../parser.js';
import { lookupCommand } from './lookupCommand.js';

/** `/stock …`: help, an item card (with the search fallback), or a search list. */
export const stockCommand = lookupCommand<StockRequest>({
  name: '/stock',
  family: 'stock',
  parse: parseStockCommand,
  help: stockHelp,
  endpoint: (request) => (request.kind === 'search' ? 'searchItems' : 'getItem'),
  describe: (request) =>
    request.kind === 'search'
      ? { kind: 'search', noun: 'item' }
      : { kind: 'record', noun: 'item', ref: request.ref },
  answer: (deps, request, actor) => {
    if (request.kind === 'search') return itemSearchAnswer(deps, request.query, 0, actor);
    return itemByCodeAnswer(deps, request.ref, request.token, actor);
  },
});
