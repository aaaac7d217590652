/**
 * The lookup service: cache, coalescing, the shared rate budget and retries in front of the
 * ERP (see types.ts for the contract and PRODUCT.md "Upstream economy" for the why).
 *
 * A lookup is answered, in order, from: the memory cache if fresh; a call already in flight
 * for the same key; Redis if fresh (shared mode); the ERP through the budget queue; and, if
 * the ERP fails with a retryable error, the newest entry still kept, marked stale.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { ErpApi, ErpRef } from '../erp/api.js';
import { isIdRef } from '../erp/api.js';
import {
  BadRequestError,
  ERP_ENDPOINTS,
  type ErpEndpoint,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnavailableError,
} from '../erp/errors.js';
import {
  type Contact,
  ContactSchema,
  type ContactSearchRow,
  ContactSearchRowSchema,
  type Item,
  ItemSchema,
  type ItemSearchRow,
  ItemSearchRowSchema,
} from '../erp/schemas.js';
import type { AppLogger } from '../log/logger.js';
import { BudgetQueue } from './budget.js';
import { type Entry, MemoryCache, RedisCache } from './cache.js';
import {
  contactSearchKey,
  itemSearchKey,
  normaliseContactQuery,
  normaliseItemQuery,
  refKey,
} from './keys.js';
import { type Ledger, MemoryLedger } from './ledger.js';
import type { CacheKind, Metrics } from './metrics.js';
import { checkOffset, pageFromWindow, type SearchWindow, windowStart } from './paging.js';
import { RedisHealth } from './redis.js';
import { RedisLedger } from './redis-ledger.js';
import {
  BusyError,
  type ContactQuery,
  type Fetched,
  type ItemQuery,
  type LookupOptions,
  type LookupService,
  type Page,
  SEARCH_WINDOW_SIZE,
} from './types.js';
import { type BreakerOptions, type Lane, type RetryOptions, Upstream } from './upstream.js';

export interface LookupServiceOptions {
  /** The ERP; `erp.credentialKey` names the budget, so replicas on one credential share it. */
  erp: ErpApi;
  /** How long items (and item searches) are fresh (CACHE_TTL_SECONDS). */
  ttlMs: number;
  /** How long contacts (personal data) and contact searches are fresh; shorter than ttlMs. */
  contactTtlMs: number;
  /** Memory cache bound in bytes (approximate: UTF-16 JSON size of each entry). */
  maxBytes: number;
  /** How long a 404 is remembered. Default 15 s. */
  negativeTtlMs?: number;
  /**
   * How long past freshness an entry may still be served, marked stale, when the ERP fails.
   * Items default to 1 h; contacts never longer than 10 min whatever is set.
   */
  staleForMs?: number;
  /** The ERP's limits per credential; windowMs defaults to a minute (benchmarks compress it). */
  limits: { getPerMinute: number; searchPerMinute: number; windowMs?: number };
  /** Longest a caller may wait for budget; a longer expected wait is a BusyError at once. */
  queueMaxWaitMs: number;
  /** Shared mode: second-level cache and the budget in Redis. The caller owns the client. */
  redis?: Redis;
  /** Redis key namespace. Default `erp-lookups:`. */
  keyPrefix?: string;
  logger: AppLogger;
  metrics: Metrics;
  /**
   * Clock in ms, default Date.now. The circuit breaker (cockatiel) reads Date.now itself, so
   * tests of the breaker use fake timers rather than this clock.
   */
  now?: () => number;
  /** Jitter source for retry backoff. Default Math.random. */
  random?: () => number;
  retry?: RetryOptions;
  breaker?: BreakerOptions;
}

const HOUR = 3_600_000;
const CONTACT_STALE_CAP_MS = 600_000;
/** A slot whose replica died mid-call is freed after this; longer than any ERP call. */
const FLIGHT_BOUND_MS = 60_000;

interface Lifetimes {
  freshMs: number;
  staleMs: number;
}

interface Spec<T> {
  kind: CacheKind;
  endpoint: ErpEndpoint;
  key: string;
  schema: z.ZodType<T>;
  life: Lifetimes;
  fetch: () => Promise<T>;
  /** Other keys the same answer is known under (an item fetched by id is also its code). */
  aliases?: (data: T) => string[];
}

const windowSchema = <T>(row: z.ZodType<T>) =>
  z.object({ rows: z.array(row), count: z.number().int().nonnegative() });

export function createLookupService(options: LookupServiceOptions): LookupService {
  return new CachedLookupService(options);
}

class CachedLookupService implements LookupService {
  private readonly now: () => number;
  private readonly memory: MemoryCache;
  private readonly shared: RedisCache | undefined;
  private readonly health: RedisHealth | undefined;
  private readonly lanes: Record<ErpEndpoint, Lane>;
  private readonly upstream: Upstream;
  private readonly inflight = new Map<string, Promise<Fetched<unknown>>>();
  private readonly items: Lifetimes;
  private readonly contacts: Lifetimes;
  private readonly negativeTtlMs: number;

  constructor(private readonly o: LookupServiceOptions) {
    if (o.ttlMs <= 0 || o.contactTtlMs <= 0) throw new RangeError('cache lifetimes must be > 0');
    this.now = o.now ?? Date.now;
    this.memory = new MemoryCache(o.maxBytes, this.now);
    this.items = { freshMs: o.ttlMs, staleMs: o.staleForMs ?? HOUR };
    this.contacts = {
      freshMs: o.contactTtlMs,
      staleMs: Math.min(o.staleForMs ?? CONTACT_STALE_CAP_MS, CONTACT_STALE_CAP_MS),
    };
    this.negativeTtlMs = o.negativeTtlMs ?? 15_000;
    const prefix = o.keyPrefix ?? 'erp-lookups:';
    if (o.redis) {
      this.health = new RedisHealth(o.redis, o.logger);
      this.shared = new RedisCache(o.redis, this.health, prefix, o.erp.credentialKey);
    }
    this.lanes = this.createLanes(prefix);
    this.upstream = new Upstream({
      lanes: this.lanes,
      windowMs: o.limits.windowMs ?? 60_000,
      retry: o.retry,
      breaker: o.breaker,
      metrics: o.metrics,
      logger: o.logger,
      now: this.now,
      random: o.random ?? Math.random,
    });
  }

  getItem(ref: ErpRef, options: LookupOptions = {}): Promise<Fetched<Item>> {
    checkRef('getItem', ref);
    return this.lookup(
      {
        kind: 'item',
        endpoint: 'getItem',
        key: refKey('item', ref),
        schema: ItemSchema,
        life: this.items,
        fetch: () => this.o.erp.getItem(ref),
        aliases: (item) => [refKey('item', { id: item.id }), refKey('item', { code: item.code })],
      },
      options,
    );
  }

  getContact(ref: ErpRef, options: LookupOptions = {}): Promise<Fetched<Contact>> {
    checkRef('getContact', ref);
    return this.lookup(
      {
        kind: 'contact',
        endpoint: 'getContact',
        key: refKey('contact', ref),
        schema: ContactSchema,
        life: this.contacts,
        fetch: () => this.o.erp.getContact(ref),
        aliases: (contact) => [
          refKey('contact', { id: contact.clientid }),
          refKey('contact', { code: contact.code }),
        ],
      },
      options,
    );
  }

  async searchItems(
    query: ItemQuery,
    offset: number,
    options: LookupOptions = {},
  ): Promise<Fetched<Page<ItemSearchRow>>> {
    checkOffset('searchItems', offset);
    const normalised = normaliseItemQuery(query);
    const at = windowStart(offset);
    const window = await this.lookup<SearchWindow<ItemSearchRow>>(
      {
        kind: 'item_search',
        endpoint: 'searchItems',
        key: itemSearchKey(normalised, at),
        schema: windowSchema(ItemSearchRowSchema),
        life: this.items,
        fetch: async () => {
          const envelope = await this.o.erp.searchItems({
            keywords: normalised.words,
            category: normalised.category,
            supplier: normalised.supplier,
            limit: SEARCH_WINDOW_SIZE,
            offset: at,
          });
          return { rows: envelope.items, count: envelope.count };
        },
      },
      options,
    );
    return { data: pageFromWindow(window.data, at, offset), freshness: window.freshness };
  }

  async searchContacts(
    query: ContactQuery,
    offset: number,
    options: LookupOptions = {},
  ): Promise<Fetched<Page<ContactSearchRow>>> {
    checkOffset('searchContact', offset);
    const normalised = normaliseContactQuery(query);
    const at = windowStart(offset);
    const window = await this.lookup<SearchWindow<ContactSearchRow>>(
      {
        kind: 'contact_search',
        endpoint: 'searchContact',
        key: contactSearchKey(normalised, at),
        schema: windowSchema(ContactSearchRowSchema),
        life: this.contacts,
        fetch: async () => {
          const envelope = await this.o.erp.searchContact({
            keywords: normalised.words,
            type: normalised.type,
            limit: SEARCH_WINDOW_SIZE,
            offset: at,
          });
          return { rows: envelope.contacts, count: envelope.count };
        },
      },
      options,
    );
    return { data: pageFromWindow(window.data, at, offset), freshness: window.freshness };
  }

  /** The budget lanes and a way to call through them, for src/lookup/crawl-budget.ts (issue 16). */
  budgetAccess(): BudgetAccess {
    return {
      lanes: this.lanes,
      call: (endpoint, requester, fn) => this.upstream.call(endpoint, requester, fn),
      breakerState: (endpoint) => this.upstream.endpointBreakerState(endpoint),
    };
  }

  expectedWaitMs(endpoint: ErpEndpoint): number {
    return this.lanes[endpoint].queue.expectedWaitMs();
  }

  async close(): Promise<void> {
    for (const endpoint of ERP_ENDPOINTS) this.lanes[endpoint].queue.close();
    this.health?.dispose();
    this.memory.clear();
  }

  private async lookup<T>(spec: Spec<T>, options: LookupOptions): Promise<Fetched<T>> {
    if (!options.refresh) {
      const entry = this.memory.get(spec.key);
      if (entry && this.isFresh(entry, spec.life)) return this.fromEntry(spec, entry);
    }
    let load = this.inflight.get(spec.key) as Promise<Fetched<T>> | undefined;
    if (!load) {
      load = this.load(spec, options);
      this.inflight.set(spec.key, load);
      const forget = () => this.inflight.delete(spec.key);
      load.then(forget, forget);
    }
    return abortable(load, options.signal);
  }

  private async load<T>(spec: Spec<T>, options: LookupOptions): Promise<Fetched<T>> {
    let fallback = this.memory.get(spec.key);
    if (!options.refresh && this.shared) {
      const entry = await this.shared.get(spec.key, spec.schema);
      if (entry && this.isFresh(entry, spec.life)) {
        this.remember(spec.key, entry, spec.life, false);
        return this.fromEntry(spec, entry);
      }
      if (
        entry?.kind === 'value' &&
        (fallback?.kind !== 'value' || entry.fetchedAt > fallback.fetchedAt)
      ) {
        fallback = entry;
      }
    }
    this.o.metrics.cache.inc({ kind: spec.kind, result: 'miss' });
    try {
      const data = await this.upstream.call(spec.endpoint, options.requester, spec.fetch);
      const entry: Entry = { kind: 'value', data, fetchedAt: this.now() };
      for (const key of new Set([spec.key, ...(spec.aliases?.(data) ?? [])])) {
        this.remember(key, entry, spec.life, true);
      }
      return {
        data,
        freshness: { fetchedAt: new Date(entry.fetchedAt), fromCache: false, stale: false },
      };
    } catch (error) {
      if (error instanceof NotFoundError) {
        this.remember(spec.key, { kind: 'not_found', fetchedAt: this.now() }, spec.life, true);
        throw error;
      }
      if (fallback?.kind === 'value' && servesStale(error))
        return this.serveStale(spec, fallback, error);
      throw error;
    }
  }

  private serveStale<T>(
    spec: Spec<T>,
    entry: Entry & { kind: 'value' },
    error: unknown,
  ): Fetched<T> {
    this.o.metrics.cache.inc({ kind: spec.kind, result: 'stale' });
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
    this.o.logger.warn(
      { endpoint: spec.endpoint, code, ageMs: this.now() - entry.fetchedAt },
      'ERP failed; serving the cached answer',
    );
    return {
      data: entry.data as T,
      freshness: {
        fetchedAt: new Date(entry.fetchedAt),
        fromCache: true,
        // Served because the ERP failed, even when still within its lifetime (a failed
        // Refresh): the user must see that this is not what they asked for.
        stale: true,
      },
    };
  }

  private fromEntry<T>(spec: Spec<T>, entry: Entry): Fetched<T> {
    if (entry.kind === 'not_found') {
      this.o.metrics.cache.inc({ kind: spec.kind, result: 'negative' });
      throw new NotFoundError('Not found (remembered from a recent lookup)', {
        endpoint: spec.endpoint,
        statusCode: 404,
      });
    }
    this.o.metrics.cache.inc({ kind: spec.kind, result: 'hit' });
    return {
      data: entry.data as T,
      freshness: { fetchedAt: new Date(entry.fetchedAt), fromCache: true, stale: false },
    };
  }

  private isFresh(entry: Entry, life: Lifetimes): boolean {
    const freshMs = entry.kind === 'not_found' ? this.negativeTtlMs : life.freshMs;
    return this.now() < entry.fetchedAt + freshMs;
  }

  /** Keeps an entry for its fresh time plus the stale window (a 404: its short lifetime). */
  private remember(key: string, entry: Entry, life: Lifetimes, share: boolean): void {
    const keepUntil =
      entry.fetchedAt +
      (entry.kind === 'not_found' ? this.negativeTtlMs : life.freshMs + life.staleMs);
    const keepMs = keepUntil - this.now();
    if (keepMs <= 0) return;
    this.memory.set(key, entry, keepMs);
    if (share) this.shared?.set(key, entry, keepMs);
  }

  private createLanes(prefix: string): Record<ErpEndpoint, Lane> {
    const windowMs = this.o.limits.windowMs ?? 60_000;
    const credential = createHash('sha256')
      .update(this.o.erp.credentialKey)
      .digest('hex')
      .slice(0, 16);
    const lane = (endpoint: ErpEndpoint): Lane => {
      const limit = endpoint.startsWith('search')
        ? this.o.limits.searchPerMinute
        : this.o.limits.getPerMinute;
      const ledger: Ledger =
        this.o.redis && this.health
          ? new RedisLedger({
              redis: this.o.redis,
              health: this.health,
              key: `${prefix}budget:${credential}:${endpoint}`,
              limit,
              windowMs,
              flightBoundMs: FLIGHT_BOUND_MS,
              now: this.now,
            })
          : new MemoryLedger(limit, windowMs, this.now);
      const queue = new BudgetQueue({
        endpoint,
        ledger,
        maxWaitMs: this.o.queueMaxWaitMs,
        metrics: this.o.metrics,
        now: this.now,
      });
      return { ledger, queue };
    };
    return {
      getItem: lane('getItem'),
      getContact: lane('getContact'),
      searchItems: lane('searchItems'),
      searchContact: lane('searchContact'),
    };
  }
}

export interface BudgetAccess {
  lanes: Record<ErpEndpoint, Lane>;
  call<T>(endpoint: ErpEndpoint, requester: string, fn: () => Promise<T>): Promise<T>;
  breakerState(endpoint: ErpEndpoint): 'closed' | 'open' | 'half-open';
}

/** The budget behind a service built here (undefined for any other LookupService). */
export function budgetAccessOf(service: LookupService): BudgetAccess | undefined {
  return service instanceof CachedLookupService ? service.budgetAccess() : undefined;
}

/** The ERP (or the budget) failed in a way that a later call may not: an old answer helps. */
function servesStale(error: unknown): boolean {
  return (
    error instanceof ServerError ||
    error instanceof UnavailableError ||
    error instanceof RateLimitedError ||
    error instanceof BusyError
  );
}

function checkRef(endpoint: ErpEndpoint, ref: ErpRef): void {
  const valid = isIdRef(ref)
    ? Number.isSafeInteger(ref.id) && ref.id > 0
    : typeof ref.code === 'string' && ref.code.length > 0;
  if (!valid)
    throw new BadRequestError('Give an item or contact code, or a positive id', { endpoint });
}

/**
 * A caller that gives up (its signal aborts) stops waiting; the shared call continues for
 * the others and still fills the cache.
 */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
