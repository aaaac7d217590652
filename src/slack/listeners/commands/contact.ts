import { NotFoundError } from '../../../erp/errors.js';
import type { ContactQuery } from '../../../lookup/types.js';
import type { SlackUsersApi } from '../../../privacy/revealPolicy.js';
import { contactRetryPlan } from '../../../rules/people.js';
import { contactHelp } from '../../../views/help.js';
import type { SlackMessage } from '../../../views/message.js';
import { contactRetryNotice } from '../../../views/notFound.js';
import type { IfNothingFound } from '../../answers.js';
import {
  contactByCodeAnswer,
  contactCardAnswer,
  contactSearchAnswer,
} from '../../contactAnswers.js';
import type { ContactDeps, DeliveryDeps, ItemDeps, WordsDeps } from '../../deps.js';
import { type ContactLookup, type ContactRequest, parseContactCommand } from '../../parser.js';
import type { Actor } from '../../payloads.js';
import { contactRequestAnswer, contactSentenceInstead } from '../../words/asCommand.js';
import { type LookupCommand, lookupCommand, sentenceInstead } from './lookupCommand.js';

/**
 * `/contact …`: help, a contact card (redacted; with the search fallback; only the matching
 * people when asked), or a list.
 */
export function contactCommand(
  deps: DeliveryDeps & ContactDeps & Pick<ItemDeps, 'catalogue'> & WordsDeps,
) {
  return lookupCommand(deps, contactCommandSpec(deps));
}

/** What `/contact` reads and answers, for the command and for its "Try again". */
export function contactCommandSpec(
  deps: DeliveryDeps & ContactDeps & Pick<ItemDeps, 'catalogue'> & WordsDeps,
): LookupCommand<ContactRequest> {
  return {
    family: 'contact',
    parse: parseContactCommand,
    help: contactHelp,
    endpoint: (request) => (request.kind === 'search' ? 'searchContact' : 'getContact'),
    subject: (request) =>
      request.kind === 'contact'
        ? { kind: 'record', noun: 'contact', ref: request.ref }
        : request.kind === 'people'
          ? { kind: 'record', noun: 'contact', ref: { code: request.code } }
          : { kind: 'search', noun: 'contact' },
    // `/contact who does accounts at ACME01`: a sentence, when its search finds nothing.
    sentence: (text, request, actor, client) =>
      sentenceInstead(contactSentenceInstead(deps, text, request), (sentence) =>
        contactRequestAnswer(deps, sentence, actor, client, (lookup) =>
          contactAnswer(deps, lookup, actor, client),
        ),
      ),
    answer: (request, actor, client, ifNothingFound) =>
      contactAnswer(deps, request, actor, client, ifNothingFound),
  };
}

/** A contact card, only its matching people, or a search: `/contact` and Find contact alike. */
export function contactAnswer(
  deps: DeliveryDeps & ContactDeps,
  request: ContactLookup,
  actor: Actor,
  client: SlackUsersApi,
  ifNothingFound?: IfNothingFound,
): Promise<SlackMessage> {
  switch (request.kind) {
    case 'contact':
      return contactByCodeAnswer(deps, request, actor, client);
    case 'people':
      return peopleAnswer(deps, request, actor, client);
    case 'search':
      return contactWordsAnswer(deps, request.query, actor, client, ifNothingFound);
  }
}

/** `/contact ACME01 accounts`: one getContact; not a contact code: the words are a search. */
async function peopleAnswer(
  deps: DeliveryDeps & ContactDeps,
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
    return contactWordsAnswer(deps, request.fallback, actor, client);
  }
}

/**
 * A contact search; when several words find nothing, one retry with the leading word(s) as
 * the account: one account opens with only its matching people, several are listed, and
 * either says that the search was retried.
 */
async function contactWordsAnswer(
  deps: DeliveryDeps & ContactDeps,
  query: ContactQuery,
  actor: Actor,
  client: SlackUsersApi,
  ifNothingFound?: IfNothingFound,
): Promise<SlackMessage> {
  const plan = contactRetryPlan(query);
  if (plan === undefined) {
    return contactSearchAnswer(deps, query, 0, actor, undefined, ifNothingFound);
  }
  const options = { requester: actor.userId };
  const first = await deps.lookup.searchContacts(query, 0, options);
  // The same query again: answered from the cache, drawn as every list is.
  if (first.data.rows.length > 0) return contactSearchAnswer(deps, query, 0, actor);
  // A sentence that finds nothing as a search is answered as the sentence, never retried.
  if (ifNothingFound) return ifNothingFound();
  const retried = await deps.lookup.searchContacts(plan.account, 0, options);
  const [only, ...others] = retried.data.rows;
  if (only === undefined) return contactSearchAnswer(deps, query, 0, actor);
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
  return contactSearchAnswer(deps, plan.account, 0, actor, notice);
}
