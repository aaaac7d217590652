/**
 * The lookup service: what every surface (Slack listeners, console) calls. It owns caching,
 * coalescing, the shared rate budget, retries and staleness, and hands back data with its
 * freshness.
 */
import { type ErpEndpoint, isErpError } from '../erp/errors.js';
import type {
  Contact,
  ContactSearchRow,
  ContactType,
  ErpRef,
  Item,
  ItemSearchRow,
} from '../erp/schemas.js';

export interface Freshness {
  /** When the ERP produced this answer (not when we served it). */
  fetchedAt: Date;
  /** True when no upstream call was made for this request. */
  fromCache: boolean;
  /** True when this is the last known answer, served because the ERP failed. */
  stale: boolean;
  /** Set when a stale answer was served only because the budget was busy (the ERP is fine). */
  staleBecause?: 'busy';
}

export interface Fetched<T> {
  data: T;
  freshness: Freshness;
}

/** A search as a user asked it; normalised by the service (trimmed, lower-cased keys). */
export interface ItemQuery {
  words: readonly string[];
  category?: number;
  supplier?: number;
}

export interface ContactQuery {
  words: readonly string[];
  type?: ContactType;
}

/** One page of search results, served from a larger upstream window. */
export interface Page<T> {
  rows: readonly T[];
  /** Row offset of the first row of this page. */
  offset: number;
  pageSize: number;
  hasPrevious: boolean;
  /** Never derived from the ERP's `count` alone: a full upstream window means "maybe more". */
  hasNext: boolean;
  /** Set only when the ERP's `count` is clearly a total (larger than the page it came with). */
  total: number | undefined;
}

export interface LookupOptions {
  /** Bypass freshness (Refresh button); still shares in-flight calls and the budget. */
  refresh?: boolean;
  /** Who is asking (Slack user id): the budget queue is fair between requesters. */
  requester?: string;
  signal?: AbortSignal;
}

export interface LookupService {
  getItem(ref: ErpRef, options?: LookupOptions): Promise<Fetched<Item>>;
  getContact(ref: ErpRef, options?: LookupOptions): Promise<Fetched<Contact>>;
  searchItems(
    query: ItemQuery,
    offset: number,
    options?: LookupOptions,
  ): Promise<Fetched<Page<ItemSearchRow>>>;
  searchContacts(
    query: ContactQuery,
    offset: number,
    options?: LookupOptions,
  ): Promise<Fetched<Page<ContactSearchRow>>>;
  /**
   * The item as the cache holds it now (fresh, or stale but still kept), or undefined; never
   * an ERP call, never a wait. Optional: a lookup without a cache has nothing to peek at.
   */
  peekItem?(ref: ErpRef): Fetched<Item> | undefined;
  /** How long a new upstream call to this endpoint would wait for budget now, in ms. */
  expectedWaitMs(endpoint: ErpEndpoint): number;
  /** Where `requester`'s next call would stand: its own calls ahead and the wait (for views). */
  queuePosition(endpoint: ErpEndpoint, requester: string): QueuePosition;
  /** The ERP circuit breaker's state (the worst endpoint's): what /readyz and metrics report. */
  breakerState(): 'closed' | 'open' | 'half-open';
  close(): Promise<void>;
}

export interface QueuePosition {
  /** This requester's own calls already waiting on the endpoint. */
  ownAhead: number;
  waitMs: number;
}

/** The budget queue is full or the wait would exceed the bound: tell the user to retry. */
export class BusyError extends Error {
  readonly code = 'lookup_busy';
  readonly endpoint: ErpEndpoint;
  readonly expectedWaitMs: number;

  /** `cause`: the 429 that made us wait, when a retry after it could not be queued. */
  constructor(endpoint: ErpEndpoint, expectedWaitMs: number, options: { cause?: unknown } = {}) {
    super(
      `ERP budget for ${endpoint} is exhausted; expected wait ${Math.ceil(expectedWaitMs / 1000)} s`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'BusyError';
    this.endpoint = endpoint;
    this.expectedWaitMs = expectedWaitMs;
  }
}

/**
 * Errors a later try of the same request may not meet: the ERP down, slow or rate limiting
 * (ErpError.retryable), or our budget busy. Anything about the question itself (not found,
 * bad input, misconfiguration, unexpected data, an oversized answer) will fail again.
 */
export function isTransient(error: unknown): boolean {
  return error instanceof BusyError || (isErpError(error) && error.retryable);
}

/** Rows per Slack page of search results. */
export const SEARCH_PAGE_SIZE = 10;
/** Rows per upstream search call; pages are served from these windows. */
export const SEARCH_WINDOW_SIZE = 50;

/** Why a lookup was refused before any ERP call: the views word each reason. */
export type InputProblem = 'empty_search' | 'bad_ref' | 'bad_offset';

/**
 * A request we refused ourselves, before calling the ERP (not the ERP's 400: the ERP was
 * never asked). Its own kind, so nobody is told "the ERP refused that".
 */
export class InputError extends Error {
  readonly code = 'lookup_input';
  readonly problem: InputProblem;
  readonly endpoint: ErpEndpoint;

  constructor(problem: InputProblem, endpoint: ErpEndpoint) {
    super(`Refused before calling the ERP (${endpoint}): ${problem}`);
    this.name = 'InputError';
    this.problem = problem;
    this.endpoint = endpoint;
  }
}
