import { contactHelp } from '../../../views/help.js';
import { CONTACT_SURFACE } from '../../answers.js';
import { parseContactCommand } from '../../parser.js';
import { surfaceCommand } from './lookupCommand.js';

/** `/contact …`: help, a contact card (redacted; with the search fallback), or a list. */
export const contactCommand = surfaceCommand(CONTACT_SURFACE, {
  name: '/contact',
  family: 'contact',
  parse: parseContactCommand,
  help: contactHelp,
});
