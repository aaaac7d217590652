import { stockHelp } from '../../../views/help.js';
import { ITEM_SURFACE } from '../../answers.js';
import { categoriesAnswer } from '../../catalogueAnswers.js';
import { parseStockCommand, type StockRequest } from '../../parser.js';
import { lookupCommand, surfaceSpec } from './lookupCommand.js';

const items = surfaceSpec(ITEM_SURFACE);

/** `/stock …`: help, an item card (with the search fallback), a search list, or the categories. */
export const stockCommand = lookupCommand<StockRequest>({
  name: '/stock',
  family: 'stock',
  parse: parseStockCommand,
  help: stockHelp,
  // The categories come from the app's own index: no ERP call to wait for.
  endpoint: (request) => (request.kind === 'categories' ? 'searchItems' : items.endpoint(request)),
  describe: (request) =>
    request.kind === 'categories' ? { kind: 'search', noun: 'item' } : items.describe(request),
  answer: (deps, request, actor, client) =>
    request.kind === 'categories'
      ? categoriesAnswer(deps)
      : items.answer(deps, request, actor, client),
});
