/**
 * From a parsed request or button state to the message that answers it: calls the lookup
 * service and the views, and turns every failure into a message (answers never reject).
 */
import type { ErpRef } from '../erp/api.js';
import { type ErpEndpoint, isErpError, NotFoundError } from '../erp/errors.js';
import { CONTACTS, ITEMS, type Noun, type Resource } from '../lookup/resources.js';
import {
  BusyError,
  type Fetched,
  type LookupOptions,
  type LookupService,
  type Page,
} from '../lookup/types.js';
import type { SlackUsersApi } from '../privacy/revealPolicy.js';
import { contactCard } from '../views/contactCard.js';
import { errorMessage, noticeMessage } from '../views/feedback.js';
import type { SlackMessage } from '../views/message.js';
import { notFoundNotice } from '../views/notFound.js';
import { progressMessage, type WorkSubject } from '../views/progress.js';
import { contactSearchList, itemSearchList, type ListModel } from '../views/searchLists.js';
import type { CardQuestion } from '../views/states.js';
import { indexedSearchAnswer } from './catalogueAnswers.js';
import type { ListenerDeps } from './deps.js';
import { drawnItemCard } from './drawnCards.js';
import type { Actor } from './payloads.js';

export interface ItemCardRequest {
  ref: ErpRef;
  path?: readonly string[];
  pathPages?: readonly number[];
  branchView?: 'best' | 'all';
  branchPage?: number;
  bomPage?: number;
  refresh?: boolean;
  shared?: boolean;
  /** What `/stock CODE [N] [branch]` asked: the card answers it first. */
  question?: CardQuestion;
}

export interface ContactCardRequest {
  ref: ErpRef;
  peoplePage?: number;
  refresh?: boolean;
  shared?: boolean;
  /** `/contact CODE words`: only the people matching every word. */
  peopleWords?: readonly string[];
  /** The search that found nothing and was retried as account + people. */
  retriedFrom?: readonly string[];
}

const lookupOptions = (actor: Actor, refresh = false): LookupOptions => ({
  requester: actor.userId,
  refresh,
});

/** Runs `build`; any error becomes the user-facing error message and one log line. */
export async function safely(
  deps: ListenerDeps,
  what: string,
  build: () => Promise<SlackMessage>,
): Promise<SlackMessage> {
  try {
    return await build();
  } catch (error) {
    logFailure(deps, what, error);
    return errorMessage(error);
  }
}

/** One log line for a failed answer, at the level its audience calls for. */
export function logFailure(deps: ListenerDeps, what: string, error: unknown): void {
  if (isErpError(error)) {
    const level =
      error.audience === 'admin' ? 'error' : error.audience === 'user' ? 'info' : 'warn';
    deps.logger[level]({ erp: error.toLogObject() }, `${what} failed`);
    return;
  }
  if (error instanceof BusyError) {
    deps.logger.info({ err: { name: error.name, message: error.message } }, `${what}: busy`);
    return;
  }
  deps.logger.error({ err: error }, `${what} failed unexpectedly`);
}

export async function itemCardAnswer(
  deps: ListenerDeps,
  request: ItemCardRequest,
  actor: Actor,
): Promise<SlackMessage> {
  const fetched = await deps.lookup.getItem(request.ref, lookupOptions(actor, request.refresh));
  deps.recent?.record(actor.userId, fetched.data.code);
  return drawnItemCard({
    ...deps.display,
    item: fetched.data,
    freshness: fetched.freshness,
    now: deps.now(),
    path: request.path,
    pathPages: request.pathPages,
    branchView: request.branchView,
    branchPage: request.branchPage,
    bomPage: request.bomPage,
    shared: request.shared,
    question: request.question,
  });
}

async function mayOfferReveal(
  deps: ListenerDeps,
  actor: Actor,
  client: SlackUsersApi,
): Promise<boolean> {
  if (!deps.reveal.canOffer()) return false;
  return (await deps.reveal.mayReveal(actor.userId, client)).allowed;
}

export async function contactCardAnswer(
  deps: ListenerDeps,
  request: ContactCardRequest,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  // A shared card is read by many: it offers Reveal whenever the policy allows anyone, and
  // each click is checked for the person who clicked.
  const [fetched, canReveal] = await Promise.all([
    deps.lookup.getContact(request.ref, lookupOptions(actor, request.refresh)),
    request.shared ? Promise.resolve(deps.reveal.canOffer()) : mayOfferReveal(deps, actor, client),
  ]);
  return contactCard({
    ...deps.display,
    contact: fetched.data,
    freshness: fetched.freshness,
    now: deps.now(),
    peoplePage: request.peoplePage,
    canReveal,
    shared: request.shared,
    peopleWords: request.peopleWords,
    retriedFrom: request.retriedFrom,
  });
}

/**
 * What the Slack answers need of items or contacts: their search, their list view and their
 * card. `/stock` and `/contact`, the card clicks and the page clicks are generic over these.
 */
export interface Surface<Q extends { words: readonly string[] }, Row extends { code: string }> {
  noun: Noun;
  endpoints: { record: ErpEndpoint; search: ErpEndpoint };
  search(
    lookup: LookupService,
    query: Q,
    offset: number,
    options: LookupOptions,
  ): Promise<Fetched<Page<Row>>>;
  list(model: ListModel<Q, Row>): SlackMessage;
  /** The search run when an exact code is not found. */
  queryFor(token: string): Q;
  card(deps: ListenerDeps, ref: ErpRef, actor: Actor, client: SlackUsersApi): Promise<SlackMessage>;
  /** A page answered from the app's own index instead of the ERP, when it can (items only). */
  fromIndex?(
    deps: ListenerDeps,
    query: Q,
    offset: number,
    notice: string | undefined,
  ): SlackMessage | undefined;
}

/** A surface from the resource's description and the views and calls that show it. */
function surfaceOf<Q extends { words: readonly string[] }, Row extends { code: string }>(
  resource: Resource<unknown, Q, Row>,
  shown: Pick<Surface<Q, Row>, 'search' | 'list' | 'card' | 'fromIndex'>,
): Surface<Q, Row> {
  return {
    noun: resource.record.noun,
    endpoints: { record: resource.record.endpoint, search: resource.search.endpoint },
    queryFor: (token) => resource.search.fromWords([token]),
    ...shown,
  };
}

export const ITEM_SURFACE = surfaceOf(ITEMS, {
  search: (lookup, query, offset, options) => lookup.searchItems(query, offset, options),
  list: itemSearchList,
  card: (deps, ref, actor) => itemCardAnswer(deps, { ref }, actor),
  fromIndex: indexedSearchAnswer,
});

export const CONTACT_SURFACE = surfaceOf(CONTACTS, {
  search: (lookup, query, offset, options) => lookup.searchContacts(query, offset, options),
  list: contactSearchList,
  card: (deps, ref, actor, client) => contactCardAnswer(deps, { ref }, actor, client),
});

/** A page of search results; `notice` (worded by a view) heads it. */
export async function searchAnswer<
  Q extends { words: readonly string[] },
  Row extends { code: string },
>(
  surface: Surface<Q, Row>,
  deps: ListenerDeps,
  query: Q,
  offset: number,
  actor: Actor,
  notice?: string,
): Promise<SlackMessage> {
  const indexed = surface.fromIndex?.(deps, query, offset, notice);
  if (indexed) return indexed;
  const fetched = await surface.search(deps.lookup, query, offset, lookupOptions(actor));
  return listOf(surface, deps, query, fetched, { notice });
}

/** The list view of fetched search results, with the display options of this workspace. */
function listOf<Q extends { words: readonly string[] }, Row extends { code: string }>(
  surface: Surface<Q, Row>,
  deps: ListenerDeps,
  query: Q,
  fetched: Fetched<Page<Row>>,
  heading: { notice?: string; fromCode?: boolean; suggestions?: readonly string[] },
): SlackMessage {
  return surface.list({
    ...deps.display,
    ...heading,
    query,
    page: fetched.data,
    freshness: fetched.freshness,
    now: deps.now(),
  });
}

/**
 * `/stock CODE`, `/contact CODE`: the card; on 404 a search for the code, opening the top
 * result when its code equals the token ignoring case (PRODUCT.md), else the close matches.
 * An id (`id:123`, `#123`) that does not exist is said plainly: there is nothing to search.
 */
export async function byCodeAnswer<
  Q extends { words: readonly string[] },
  Row extends { code: string },
>(
  surface: Surface<Q, Row>,
  deps: ListenerDeps,
  request: { ref: ErpRef; token: string; query: Q },
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  const { ref, token, query } = request;
  try {
    return await surface.card(deps, ref, actor, client);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    if ('id' in ref || token === '') {
      return noticeMessage(notFoundNotice({ noun: surface.noun, ref }));
    }
    const fetched = await surface.search(deps.lookup, query, 0, lookupOptions(actor));
    const top = fetched.data.rows[0];
    if (top && top.code.toLowerCase() === token.toLowerCase()) {
      return surface.card(deps, { code: top.code }, actor, client);
    }
    // Read as a search for the code: the view says "not found" only when nothing matched,
    // and then offers the known codes nearest to it.
    const suggestions =
      fetched.data.rows.length === 0 && surface.noun === 'item'
        ? deps.catalogue?.nearestCodes(token)
        : undefined;
    return listOf(surface, deps, query, fetched, { fromCode: true, suggestions });
  }
}

/** The one short "working on it" line: why (queued, and behind whose lookups, or a slow ERP). */
export function workingLine(
  deps: ListenerDeps,
  subject: WorkSubject,
  endpoint: ErpEndpoint,
  actor: Actor,
): SlackMessage {
  const { waitMs, ownAhead } = deps.lookup.queuePosition(endpoint, actor.userId);
  return progressMessage(
    subject,
    waitMs > 0 ? { kind: 'queued', waitMs, ownAhead } : { kind: 'slow' },
  );
}

export function isKnownToBeSlow(deps: ListenerDeps, endpoint: ErpEndpoint, actor: Actor): boolean {
  return deps.lookup.queuePosition(endpoint, actor.userId).waitMs > deps.timing.workingAfterMs;
}
