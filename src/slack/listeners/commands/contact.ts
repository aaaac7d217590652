import { NotFoundError } from '../../../erp/errors.js';
import { contactRetryPlan } from '../../../lookup/people.js';
import type { ContactQuery } from '../../../lookup/types.js';
import type { SlackUsersApi } from '../../../privacy/revealPolicy.js';
import { contactHelp } from '../../../views/help.js';
import type { SlackMessage } from '../../../views/message.js';
import { contactRetryNotice } from '../../../views/notFound.js';
import { CONTACT_SURFACE, contactCardAnswer, searchAnswer } from '../../answers.js';
import type { ListenerDeps } from '../../deps.js';
import { type ContactRequest, parseContactCommand } from '../../parser.js';
import type { Actor } from '../../payloads.js';
import { lookupCommand, surfaceSpec } from './lookupCommand.js';

const contacts = surfaceSpec(CONTACT_SURFACE);

/** `/contact …`: help, a card (redacted; only the matching people when asked), or a list. */
export const contactCommand = lookupCommand<ContactRequest>({
  name: '/contact',
  family: 'contact',
  parse: parseContactCommand,
  help: contactHelp,
  endpoint: (request) => (request.kind === 'people' ? 'getContact' : contacts.endpoint(request)),
  describe: (request) =>
    request.kind === 'people'
      ? { kind: 'record', noun: 'contact', ref: { code: request.code } }
      : contacts.describe(request),
  answer: (deps, request, actor, client) => {
    if (request.kind === 'people') return peopleAnswer(deps, request, actor, client);
    if (request.kind === 'search') return contactSearchAnswer(deps, request.query, actor, client);
    return contacts.answer(deps, request, actor, client);
  },
});

/** `/contact ACME01 accounts`: one getContact; not a contact code: the words are a search. */
export async function peopleAnswer(
  deps: ListenerDeps,
  request: Extract<ContactRequest, { kind: 'people' }>,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  try {
    return await contactCardAnswer(
      deps,
      { ref: { code: request.code }, peopleWords: request.peopleWords },
      actor,
      client,
    );
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return contactSearchAnswer(deps, request.fallback, actor, client);
  }
}

/**
 * A contact search; when several words find nothing, one retry with the leading word(s) as
 * the account: one account opens with only its matching people, several are listed.
 */
export async function contactSearchAnswer(
  deps: ListenerDeps,
  query: ContactQuery,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  const options = { requester: actor.userId };
  const plan = contactRetryPlan(query);
  if (plan === undefined) return searchAnswer(CONTACT_SURFACE, deps, query, 0, actor);
  const first = await deps.lookup.searchContacts(query, 0, options);
  if (first.data.rows.length > 0) return searchAnswer(CONTACT_SURFACE, deps, query, 0, actor);
  const retried = await deps.lookup.searchContacts(plan.account, 0, options);
  const [only, ...others] = retried.data.rows;
  if (only === undefined) return searchAnswer(CONTACT_SURFACE, deps, query, 0, actor);
  if (others.length === 0 && !retried.data.hasNext) {
    return contactCardAnswer(
      deps,
      { ref: { code: only.code }, peopleWords: plan.peopleWords, retriedFrom: query.words },
      actor,
      client,
    );
  }
  const notice = contactRetryNotice({
    typed: query.words,
    account: plan.account.words,
    peopleWords: plan.peopleWords,
  });
  return searchAnswer(CONTACT_SURFACE, deps, plan.account, 0, actor, notice);
}
