import { contactHelp } from '../../../views/help.js';
import { contactByCodeAnswer, contactSearchAnswer } from '../../answers.js';
import { type ContactRequest, parseContactCommand } from '../../parser.js';
import { lookupCommand } from './lookupCommand.js';

/** `/contact …`: help, a contact card (redacted; with the search fallback), or a list. */
export const contactCommand = lookupCommand<ContactRequest>({
  name: '/contact',
  family: 'contact',
  parse: parseContactCommand,
  help: contactHelp,
  endpoint: (request) => (request.kind === 'search' ? 'searchContact' : 'getContact'),
  describe: (request) =>
    request.kind === 'search'
      ? { kind: 'search', noun: 'contact' }
      : { kind: 'record', noun: 'contact', ref: request.ref },
  answer: (deps, request, actor, client) => {
    if (request.kind === 'search') return contactSearchAnswer(deps, request.query, 0, actor);
    return contactByCodeAnswer(deps, request.ref, request.token, actor, client);
  },
});
