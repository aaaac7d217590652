import { stockHelp } from '../../../views/help.js';
import { itemByCodeAnswer, itemSearchAnswer } from '../../answers.js';
import { categoriesAnswer } from '../../catalogueAnswers.js';
import { parseStockCommand, type StockRequest } from '../../parser.js';
import { lookupCommand } from './lookupCommand.js';

/** `/stock …`: help, an item card (with the search fallback), or a search list. */
export const stockCommand = lookupCommand<StockRequest>({
  name: '/stock',
  family: 'stock',
  parse: parseStockCommand,
  help: stockHelp,
  endpoint: (request) => (request.kind === 'search' ? 'searchItems' : 'getItem'),
  describe: (request) => {
    if (request.kind === 'search') return 'Searching items';
    if (request.kind === 'categories') return 'Listing categories';
    return 'id' in request.ref
      ? `Looking up item #${request.ref.id}`
      : `Looking up ${request.token}`;
  },
  answer: (deps, request, actor) => {
    if (request.kind === 'search') return itemSearchAnswer(deps, request.query, 0, actor);
    if (request.kind === 'categories') return categoriesAnswer(deps);
    return itemByCodeAnswer(deps, request.ref, request.token, actor);
  },
});
