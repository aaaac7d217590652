import { stockHelp } from '../../../views/help.js';
import { ITEM_SURFACE } from '../../answers.js';
import { parseStockCommand } from '../../parser.js';
import { surfaceCommand } from './lookupCommand.js';

/** `/stock …`: help, an item card (with the search fallback), or a search list. */
export const stockCommand = surfaceCommand(ITEM_SURFACE, {
  name: '/stock',
  family: 'stock',
  parse: parseStockCommand,
  help: stockHelp,
});
