/**
 * From a parsed request or button state to the message that answers it: calls the lookup
 * service and the views, and turns every failure into a message (answers never reject).
 */
import type { ErpRef } from '../erp/api.js';
import { type ErpEndpoint, isErpError, NotFoundError } from '../erp/errors.js';
import type { ContactQuery, ItemQuery, LookupOptions } from '../lookup/types.js';
import type { SlackUsersApi } from '../privacy/revealPolicy.js';
import { contactCard } from '../views/contactCard.js';
import { errorMessage, workingMessage } from '../views/feedback.js';
import { itemCard } from '../views/itemCard.js';
import type { SlackMessage } from '../views/message.js';
import { contactSearchList, itemSearchList } from '../views/searchLists.js';
import type { ListenerDeps } from './deps.js';
import type { Actor } from './payloads.js';

export interface ItemCardRequest {
  ref: ErpRef;
  path?: readonly string[];
  branchView?: 'best' | 'all';
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
  if (error instanceof Error && (error as { code?: unknown }).code === 'lookup_busy') {
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
  return itemCard({
    item: fetched.data,
    freshness: fetched.freshness,
    now: deps.now(),
    path: request.path,
    branchView: request.branchView,
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
  const fetched = await deps.lookup.searchItems(query, offset, lookupOptions(actor));
  return itemSearchList({
    query,
    page: fetched.data,
    freshness: fetched.freshness,
    now: deps.now(),
    notice,
  });
}

/**
 * `/stock CODE`: the card; on 404 a search for the code, opening the top result when its
 * code equals the token ignoring case (PRODUCT.md), else the list of close matches.
 */
export async function itemByCodeAnswer(
  deps: ListenerDeps,
  ref: ErpRef,
  token: string,
  actor: Actor,
): Promise<SlackMessage> {
  try {
    return await itemCardAnswer(deps, { ref }, actor);
  } catch (error) {
    if (!(error instanceof NotFoundError) || token === '') throw error;
    const query: ItemQuery = { words: [token] };
    const fetched = await deps.lookup.searchItems(query, 0, lookupOptions(actor));
    const top = fetched.data.rows[0];
    if (top && top.code.toLowerCase() === token.toLowerCase()) {
      return itemCardAnswer(deps, { ref: { code: top.code } }, actor);
    }
    return itemSearchList({
      query,
      page: fetched.data,
      freshness: fetched.freshness,
      now: deps.now(),
      notice:
        fetched.data.rows.length > 0
          ? `No item has the code ${token}. Closest matches:`
          : `No item has the code ${token}, and no item matches it.`,
    });
  }
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

/** `/contact CODE`: as for items, with searchContact as the fallback. */
export async function contactByCodeAnswer(
  deps: ListenerDeps,
  ref: ErpRef,
  token: string,
  actor: Actor,
  client: SlackUsersApi,
): Promise<SlackMessage> {
  try {
    return await contactCardAnswer(deps, { ref }, actor, client);
  } catch (error) {
    if (!(error instanceof NotFoundError) || token === '') throw error;
    const query: ContactQuery = { words: [token] };
    const fetched = await deps.lookup.searchContacts(query, 0, lookupOptions(actor));
    const top = fetched.data.rows[0];
    if (top && top.code.toLowerCase() === token.toLowerCase()) {
      return contactCardAnswer(deps, { ref: { code: top.code } }, actor, client);
    }
    return contactSearchList({
      query,
      page: fetched.data,
      freshness: fetched.freshness,
      now: deps.now(),
      notice:
        fetched.data.rows.length > 0
          ? `No contact has the code ${token}. Closest matches:`
          : `No contact has the code ${token}, and no contact matches it.`,
    });
  }
}

/** The one short "working on it" line: why (queued or slow ERP) and about how long. */
export function workingLine(deps: ListenerDeps, what: string, endpoint: ErpEndpoint): SlackMessage {
  const waitMs = deps.lookup.expectedWaitMs(endpoint);
  return workingMessage(what, waitMs > 0 ? { kind: 'queued', waitMs } : { kind: 'slow' });
}

export function isKnownToBeSlow(deps: ListenerDeps, endpoint: ErpEndpoint): boolean {
  return deps.lookup.expectedWaitMs(endpoint) > deps.timing.workingAfterMs;
}
