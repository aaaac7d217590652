import type { ErpRef } from '../erp/schemas.js';
import type { ContactQuery } from '../lookup/types.js';
import type { SlackUsersApi } from '../privacy/revealPolicy.js';
import { matchingPeople, otherApostrophe, unsearchableKind } from '../rules/people.js';
import { contactCard } from '../views/contactCard.js';
import type { SlackMessage } from '../views/message.js';
import { contactSearchList } from '../views/searchLists.js';
import {
  type ByCode,
  byCodeAnswer,
  type IfNothingFound,
  internalFiguresFor,
  lookupOptions,
  pageModel,
} from './answers.js';
import type { ContactDeps, DeliveryDeps } from './deps.js';
import type { Actor } from './payloads.js';
import { matchedPeople } from './personMatches.js';

interface ContactCardRequest {
  ref: ErpRef;
  peoplePage?: number;
  /** Every person, a page at a time, instead of the first five. */
  allPeople?: boolean;
  refresh?: boolean;
  shared?: boolean;
  /** `/contact CODE words`: only the people matching every word. */
  peopleWords?: readonly string[];
  /** The search that found nothing and was retried as account + people. */
  retriedFrom?: readonly string[];
}

/** What the contact answers use. */
export type ContactAnswerDeps = ContactDeps & Pick<DeliveryDeps, 'display' | 'now'>;

export async function contactCardAnswer(
  deps: ContactAnswerDeps,
  request: ContactCardRequest,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  // A shared card is read by many: it offers Reveal whenever the policy allows anyone, and
  // each click is checked for the person who clicked.
  const [fetched, canReveal, internalFigures] = await Promise.all([
    deps.lookup.getContact(request.ref, lookupOptions(actor, request.refresh)),
    request.shared ? Promise.resolve(deps.reveal.canOffer()) : mayOfferReveal(deps, actor, client),
    internalFiguresFor(deps.internal, actor, client),
  ]);
  const shared = request.shared ?? false;
  return contactCard({
    ...deps.display,
    internalFigures,
    contact: fetched.data,
    freshness: fetched.freshness,
    now: deps.now(),
    peoplePage: request.peoplePage,
    allPeople: request.allPeople ?? false,
    canReveal,
    shared,
    peopleWords: request.peopleWords,
    ...(request.peopleWords && {
      people: matchingPeople(fetched.data.addressbook, request.peopleWords),
    }),
    retriedFrom: request.retriedFrom,
  });
}

async function mayOfferReveal(
  deps: Pick<ContactDeps, 'reveal'>,
  actor: Actor,
  client: SlackUsersApi,
): Promise<boolean> {
  if (!deps.reveal.canOffer()) return false;
  return (await deps.reveal.mayReveal(actor.userId, client, { userTeamId: actor.userTeamId }))
    .allowed;
}

/** A page of contact search results. */
export async function contactSearchAnswer(
  deps: ContactAnswerDeps,
  query: ContactQuery,
  offset: number,
  actor: Actor,
  notice?: string,
  ifNothingFound?: IfNothingFound,
): Promise<SlackMessage> {
  const fetched = await searchEitherApostrophe(deps, query, offset, actor);
  if (ifNothingFound && fetched.data.rows.length === 0) return ifNothingFound();
  const matches = await matchedPeople(deps, query, fetched.data.rows, actor.userId);
  const unsearchable = unsearchableKind(query.words);
  return contactSearchList({
    ...pageModel(deps, query, fetched),
    notice,
    ...matches,
    ...(unsearchable && fetched.data.rows.length === 0 ? { unsearchable } : {}),
  });
}

/**
 * The ERP's search, and when it finds nothing for words with an apostrophe, once more with
 * the other one: `o'connor` as typed, O’Connor as the record spells it (the ERP compares
 * characters).
 */
async function searchEitherApostrophe(
  deps: ContactAnswerDeps,
  query: ContactQuery,
  offset: number,
  actor: Actor,
) {
  const fetched = await deps.lookup.searchContacts(query, offset, lookupOptions(actor));
  const other = fetched.data.rows.length === 0 ? otherApostrophe(query.words) : undefined;
  if (other === undefined) return fetched;
  return deps.lookup.searchContacts({ ...query, words: other }, offset, lookupOptions(actor));
}

/** `/contact CODE`: as `itemByCodeAnswer`, over contacts. */
export function contactByCodeAnswer(
  deps: ContactAnswerDeps,
  request: ByCode,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  const query: ContactQuery = { words: [request.token] };
  return byCodeAnswer(request, 'contact', {
    card: (ref) => contactCardAnswer(deps, { ref }, actor, client),
    search: () => searchEitherApostrophe(deps, query, 0, actor),
    list: async (fetched) => {
      const unsearchable = unsearchableKind(query.words);
      return contactSearchList({
        ...pageModel(deps, query, fetched),
        fromCode: true,
        ...(await matchedPeople(deps, query, fetched.data.rows, actor.userId)),
        ...(unsearchable && fetched.data.rows.length === 0 ? { unsearchable } : {}),
      });
    },
  });
}
