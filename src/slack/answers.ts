/**
 * From a parsed request or button state to the message that answers it: calls the lookup
 * service and the views, and turns every failure into a message (answers never reject).
 */
import type { ErpRef } from '../erp/api.js';
import { type ErpEndpoint, isErpError, NotFoundError } from '../erp/errors.js';
import {
  BusyError,
  type ContactQuery,
  type Fetched,
  type ItemQuery,
  type LookupOptions,
  type Page,
} from '../lookup/types.js';
import type { SlackUsersApi } from '../privacy/revealPolicy.js';
import { contactCard } from '../views/contactCard.js';
import { errorMessage, noticeMessage, workingMessage } from '../views/feedback.js';
import { itemCard } from '../views/itemCard.js';
import type { SlackMessage } from '../views/message.js';
import { contactSearchList, itemSearchList } from '../views/searchLists.js';
import { indexedSearchAnswer } from './catalogueAnswers.js';
import type { ListenerDeps } from './deps.js';
import type { Actor } from './payloads.js';

export interface ItemCardRequest {
  ref: ErpRef;
  path?: readonly string[];
  branchView?: 'best' | 'all';
  bomPage?: number;
  refresh?: boolean;
  shared?: boolean;
}

export interface ContactCardRequest {
  ref: ErpRef;
  peoplePage?: number;
  refresh?: boolean;
  shared?: boolean;
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

function logFailure(deps: ListenerDeps, what: string, error: unknown): void {
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
  return itemCard({
    item: fetched.data,
    freshness: fetched.freshness,
    now: deps.now(),
    path: request.path,
    branchView: request.branchView,
    bomPage: request.bomPage,
    shared: request.shared,
  });
}

export async function itemSearchAnswer(
  deps: ListenerDeps,
  query: ItemQuery,
  offset: number,
  actor: Actor,
  notice?: string,
): Promise<SlackMessage> {
  const indexed = indexedSearchAnswer(deps, query, offset, notice);
  if (indexed) return indexed;
  const fetched = await deps.lookup.searchItems(query, offset, lookupOptions(actor));
  return itemSearchList({
    query,
    page: fetched.data,
    freshness: fetched.freshness,
    now: deps.now(),
    notice,
  });
}

interface Fallback<Row extends { code: string }> {
  noun: 'item' | 'contact';
  open(ref: ErpRef): Promise<SlackMessage>;
  search(): Promise<Fetched<Page<Row>>>;
  list(fetched: Fetched<Page<Row>>, notice: string): SlackMessage;
}

/**
 * `/stock CODE`, `/contact CODE`: the card; on 404 a search for the code, opening the top
 * result when its code equals the token ignoring case (PRODUCT.md), else the close matches.
 * An id (`id:123`, `#123`) that does not exist is said plainly: there is nothing to search.
 */
async function openWithSearchFallback<Row extends { code: string }>(
  ref: ErpRef,
  token: string,
  fallback: Fallback<Row>,
): Promise<SlackMessage> {
  try {
    return await fallback.open(ref);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    if ('id' in ref || token === '') {
      const what = 'id' in ref ? `the internal id ${ref.id}` : 'that code';
      return noticeMessage(
        `No ${fallback.noun} has ${what} in the ERP. Try its code, or search with a few words.`,
      );
    }
    const fetched = await fallback.search();
    const top = fetched.data.rows[0];
    if (top && top.code.toLowerCase() === token.toLowerCase()) {
      return fallback.open({ code: top.code });
    }
    const { noun } = fallback;
    return fallback.list(
      fetched,
      fetched.data.rows.length > 0
        ? `No ${noun} has the code ${token}. Closest matches:`
        : `No ${noun} has the code ${token}, and no ${noun} matches it.`,
    );
  }
}

export function itemByCodeAnswer(
  deps: ListenerDeps,
  ref: ErpRef,
  token: string,
  actor: Actor,
): Promise<SlackMessage> {
  const query: ItemQuery = { words: [token] };
  return openWithSearchFallback(ref, token, {
    noun: 'item',
    open: (target) => itemCardAnswer(deps, { ref: target }, actor),
    search: () => deps.lookup.searchItems(query, 0, lookupOptions(actor)),
    list: (fetched, notice) =>
      itemSearchList({
        query,
        page: fetched.data,
        freshness: fetched.freshness,
        now: deps.now(),
        notice,
      }),
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
    contact: fetched.data,
    freshness: fetched.freshness,
    now: deps.now(),
    peoplePage: request.peoplePage,
    canReveal,
    shared: request.shared,
  });
}

export async function contactSearchAnswer(
  deps: ListenerDeps,
  query: ContactQuery,
  offset: number,
  actor: Actor,
  notice?: string,
): Promise<SlackMessage> {
  const fetched = await deps.lookup.searchContacts(query, offset, lookupOptions(actor));
  return contactSearchList({
    query,
    page: fetched.data,
    freshness: fetched.freshness,
    now: deps.now(),
    notice,
  });
}

export function contactByCodeAnswer(
  deps: ListenerDeps,
  ref: ErpRef,
  token: string,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  const query: ContactQuery = { words: [token] };
  return openWithSearchFallback(ref, token, {
    noun: 'contact',
    open: (target) => contactCardAnswer(deps, { ref: target }, actor, client),
    search: () => deps.lookup.searchContacts(query, 0, lookupOptions(actor)),
    list: (fetched, notice) =>
      contactSearchList({
        query,
        page: fetched.data,
        freshness: fetched.freshness,
        now: deps.now(),
        notice,
      }),
  });
}

/** The one short "working on it" line: why (queued or slow ERP) and about how long. */
export function workingLine(deps: ListenerDeps, what: string, endpoint: ErpEndpoint): SlackMessage {
  const waitMs = deps.lookup.expectedWaitMs(endpoint);
  return workingMessage(what, waitMs > 0 ? { kind: 'queued', waitMs } : { kind: 'slow' });
}

export function isKnownToBeSlow(deps: ListenerDeps, endpoint: ErpEndpoint): boolean {
  return deps.lookup.expectedWaitMs(endpoint) > deps.timing.workingAfterMs;
}
