/**
 * The lookup service: what every surface calls (see types.ts for the contract and PRODUCT.md
 * "Upstream economy" for the why). It reads as: resource descriptions (resources.ts) →
 * lru-cache fetch (cache.ts: coalescing, freshness per kind, stale serving, Refresh) → Redis
 * second level → the budget ledger (ledger.ts, budget.ts) → cockatiel policies (upstream.ts)
 * → the ERP.
 *
 * A lookup is answered, in order, from: the memory cache if fresh; a call already in flight
 * for the same key; Redis if fresh (shared mode); the ERP through the budget queue; and, if
 * the ERP fails with a retryable error (or the budget is busy), the newest entry still kept,
 * marked stale.
 */
import type { Redis } from 'ioredis';
import type { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import type { ErpApi, ErpRef } from '../erp/api.js';
import {
  type ErpEndpoint,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnavailableError,
} from '../erp/errors.js';
import type { Contact, Item } from '../erp/schemas.js';
import type { AppLogger } from '../log/logger.js';
import {
  createMemoryCache,
  type Entry,
  type FetchContext,
  type MemoryCache,
  RedisCache,
} from './cache.js';
import { createUpstream, type UpstreamSettings } from './lanes.js';
import type { CacheKind, Metrics } from './metrics.js';
import { checkOffset, pageFromWindow, windowStart } from './paging.js';
import { RedisHealth } from './redis.js';
import {
  CONTACTS,
  checkRef,
  ITEMS,
  type LifetimeKind,
  normaliseSearch,
  type RecordResource,
  recordKey,
  type SearchResource,
  windowSchema,
} from './resources.js';
import {
  BusyError,
  type ContactQuery,
  type Fetched,
  type Freshness,
  type ItemQuery,
  type LookupOptions,
  type LookupService,
  type Page,
  type QueuePosition,
} from './types.js';
import type { BreakerState, Lane, Upstream, UpstreamCall } from './upstream.js';

export interface LookupServiceOptions {
  /** The ERP; `erp.credentialKey` names the cache, so replicas on one credential share it. */
  erp: ErpApi;
  /**
   * The budget lanes and policies every ERP call goes through, built by the composition root
   * (`createUpstream`) so the start-up check, the crawl and watches share the same ledger.
   */
  upstream: Upstream;
  /** How long items (and item searches) are fresh (CACHE_TTL_SECONDS). */
  ttlMs: number;
  /** How long contacts (personal data) and contact searches are fresh; shorter than ttlMs. */
  contactTtlMs: number;
  /** Memory cache bound in bytes (approximate: UTF-16 JSON size of each entry). */
  maxBytes: number;
  /** How long a 404 is remembered. Default 15 s. */
  negativeTtlMs?: number;
  /**
   * For this long past freshness an entry is answered at once while lru-cache revalidates it
   * in the background (stale-while-revalidate). Default 0: a lookup after its lifetime waits
   * for the ERP, since stock moves.
   */
  revalidateInBackgroundMs?: number;
  /**
   * How long past freshness an entry may still be served, marked stale, when the ERP fails.
   * Items default to 1 h; contacts never longer than 10 min whatever is set.
   */
  staleForMs?: number;
  /** Shared mode: the second-level cache in Redis. The caller owns the client and its health. */
  shared?: { redis: Redis; health: RedisHealth };
  /** Redis key namespace. Default `erp-lookups:`. */
  keyPrefix?: string;
  logger: AppLogger;
  metrics: Metrics;
  /** Clock in ms, default Date.now. */
  now?: () => number;
}

/** The budget half of a self-contained service (tests, the bench): see `createUpstream`. */
export type StandaloneLookupOptions = Omit<LookupServiceOptions, 'upstream' | 'shared'> &
  Omit<UpstreamSettings, 'credentialKey' | 'shared' | 'logger' | 'metrics' | 'now'> & {
    /** Shared mode: second-level cache and the budget in Redis. The caller owns the client. */
    redis?: Redis;
  };

const HOUR = 3_600_000;
const DEFAULT_KEY_PREFIX = 'erp-lookups:';
const CONTACT_STALE_CAP_MS = 600_000;

interface Lifetime {
  freshMs: number;
  /** How long past freshness the entry may still be served when the ERP fails. */
  staleMs: number;
}

/** One cache key's lookup: everything the generic path needs, built from a resource. */
interface Spec<T> {
  kind: CacheKind;
  endpoint: ErpEndpoint;
  lifetime: LifetimeKind;
  key: string;
  schema: z.ZodType<T>;
  /** The ERP call; `signal` aborts when the attempt's timeout passes. */
  fetch: UpstreamCall<T>;
  /** Other keys the same answer is known under (an item fetched by id is also its code). */
  aliases?: (data: T) => string[];
}

type Status = LRUCache.Status<string, Entry, FetchContext>;

/** The lookup service over budget lanes built elsewhere (the composition root). */
export function lookupServiceOver(options: LookupServiceOptions): LookupService {
  return new CachedLookupService(options, undefined);
}

/**
 * A service that builds its own budget lanes, Redis health included, and closes them with
 * itself: for tests and the bench, which need no other requester on the ledger.
 */
export function createLookupService(options: StandaloneLookupOptions): LookupService {
  const now = options.now ?? Date.now;
  const health = options.redis ? new RedisHealth(options.redis, options.logger) : undefined;
  const shared = options.redis && health ? { redis: options.redis, health } : undefined;
  const upstream = createUpstream({
    ...options,
    credentialKey: options.erp.credentialKey,
    shared: shared && { ...shared, keyPrefix: options.keyPrefix ?? DEFAULT_KEY_PREFIX },
    now,
  });
  return new CachedLookupService({ ...options, upstream, shared, now }, () => {
    upstream.close();
    health?.dispose();
  });
}

class CachedLookupService implements LookupService {
  private readonly now: () => number;
  private readonly memory: MemoryCache;
  private readonly shared: RedisCache | undefined;
  private readonly lanes: Record<ErpEndpoint, Lane>;
  private readonly upstream: Upstream;
  private readonly lifetimes: Record<LifetimeKind, Lifetime>;
  private readonly negativeTtlMs: number;
  private readonly revalidateMs: number;
  /** Why a kept entry was last served instead of a new answer (the ERP's failure). */
  private readonly failures = new WeakMap<Entry, unknown>();

  constructor(
    private readonly options: LookupServiceOptions,
    /** Closes what this service built for itself (a standalone service's budget). */
    private readonly closeOwned: (() => void) | undefined,
  ) {
    if (options.ttlMs <= 0 || options.contactTtlMs <= 0)
      throw new RangeError('cache lifetimes must be > 0');
    this.now = options.now ?? Date.now;
    this.memory = createMemoryCache(options.maxBytes, this.now);
    this.lifetimes = {
      items: { freshMs: options.ttlMs, staleMs: options.staleForMs ?? HOUR },
      contacts: {
        freshMs: options.contactTtlMs,
        staleMs: Math.min(options.staleForMs ?? CONTACT_STALE_CAP_MS, CONTACT_STALE_CAP_MS),
      },
    };
    this.negativeTtlMs = options.negativeTtlMs ?? 15_000;
    this.revalidateMs = options.revalidateInBackgroundMs ?? 0;
    if (options.shared) {
      this.shared = new RedisCache(
        options.shared.redis,
        options.shared.health,
        options.keyPrefix ?? DEFAULT_KEY_PREFIX,
        options.erp.credentialKey,
      );
    }
    this.upstream = options.upstream;
    this.lanes = options.upstream.lanes;
  }

  // The LookupService surface: each one line over the generic paths below.
  getItem(ref: ErpRef, options: LookupOptions = {}): Promise<Fetched<Item>> {
    return this.getRecord(ITEMS.record, ref, options);
  }

  getContact(ref: ErpRef, options: LookupOptions = {}): Promise<Fetched<Contact>> {
    return this.getRecord(CONTACTS.record, ref, options);
  }

  searchItems(query: ItemQuery, offset: number, options: LookupOptions = {}) {
    return this.searchPage(ITEMS.search, query, offset, options);
  }

  searchContacts(query: ContactQuery, offset: number, options: LookupOptions = {}) {
    return this.searchPage(CONTACTS.search, query, offset, options);
  }

  expectedWaitMs(endpoint: ErpEndpoint): number {
    return this.lanes[endpoint].queue.expectedWaitMs();
  }

  breakerState(): BreakerState {
    return this.upstream.breakerState();
  }

  queuePosition(endpoint: ErpEndpoint, requester: string): QueuePosition {
    return this.lanes[endpoint].queue.position(requester);
  }

  async close(): Promise<void> {
    this.closeOwned?.();
    this.memory.clear();
  }

  private getRecord<T>(
    resource: RecordResource<T>,
    ref: ErpRef,
    options: LookupOptions,
  ): Promise<Fetched<T>> {
    checkRef(resource, ref);
    const key = recordKey(resource, ref);
    const fresh = options.refresh ? undefined : this.freshHit<T>(resource.kind, key);
    if (fresh) return Promise.resolve(fresh);
    return this.lookup(
      {
        kind: resource.kind,
        endpoint: resource.endpoint,
        lifetime: resource.lifetime,
        key,
        schema: resource.schema,
        fetch: (signal) => resource.get(this.options.erp, ref, { signal }),
        aliases: (record) => resource.refs(record).map((alias) => recordKey(resource, alias)),
      },
      options,
    );
  }

  /**
   * The common case, a fresh answer in memory, without lru-cache's fetch machinery (its
   * options, status and promise cost a cached /stock more than the card's cache read).
   * lru-cache's get() hands back only entries within their lifetime.
   */
  private freshHit<T>(kind: CacheKind, key: string): Fetched<T> | undefined {
    const entry = this.memory.get(key);
    return entry?.kind === 'value' ? this.served(kind, entry, true) : undefined;
  }

  private async searchPage<Q extends { words: readonly string[] }, Row>(
    resource: SearchResource<Q, Row>,
    query: Q,
    offset: number,
    options: LookupOptions,
  ): Promise<Fetched<Page<Row>>> {
    checkOffset(resource.endpoint, offset);
    const at = windowStart(offset);
    const normalised = normaliseSearch(resource, query, at);
    const window = await this.lookup(
      {
        kind: resource.kind,
        endpoint: resource.endpoint,
        lifetime: resource.lifetime,
        key: normalised.key,
        schema: windowSchema(resource.rowSchema),
        fetch: (signal) => resource.search(this.options.erp, normalised.query, at, { signal }),
      },
      options,
    );
    return { data: pageFromWindow(window.data, at, offset), freshness: window.freshness };
  }

  private async lookup<T>(spec: Spec<T>, options: LookupOptions): Promise<Fetched<T>> {
    const life = this.lifetimes[spec.lifetime];
    const startedAt = this.now();
    let kept = this.memory.peek(spec.key, { allowStale: true });
    // Too old even to serve stale: gone (contacts are personal data; never kept longer).
    if (kept && startedAt - kept.fetchedAt >= this.keepMs(kept, life)) {
      this.memory.delete(spec.key);
      kept = undefined;
    }
    const revalidate =
      kept?.kind === 'value' && startedAt - kept.fetchedAt < life.freshMs + this.revalidateMs;
    const status: Status = {};
    const fetching = this.memory.fetch(spec.key, {
      forceRefresh: options.refresh === true,
      allowStale: revalidate && options.refresh !== true,
      // The last answer when the ERP fails (answer() decides whether the failure allows it).
      allowStaleOnFetchRejection: kept?.kind === 'value',
      status,
      context: {
        load: (stale, setTtl) => this.load(spec, life, stale, setTtl, options),
      },
    });
    // Read now: a stale entry handed back at once while lru-cache revalidates it in the
    // background (later, returnedStale also marks a stale entry served after a rejection).
    const revalidating = status.returnedStale === true;
    const entry = await abortable(fetching, options.signal);
    if (entry === undefined) throw new Error(`lookup cache gave nothing for ${spec.endpoint}`);
    return this.answer(spec, entry, { hit: status.fetch === 'hit', revalidating }, startedAt);
  }

  /** The fetchMethod for one key: Redis if fresh, else the ERP through budget and policies. */
  private async load<T>(
    spec: Spec<T>,
    life: Lifetime,
    stale: Entry | undefined,
    setTtl: (ttlMs: number) => void,
    options: LookupOptions,
  ): Promise<Entry> {
    let fallback = stale;
    if (!options.refresh && this.shared) {
      const entry = await this.shared.get(spec.key, spec.schema);
      if (entry && this.isFresh(entry, life)) {
        setTtl(entry.fetchedAt + this.freshMs(entry, life) - this.now());
        return entry;
      }
      if (
        entry?.kind === 'value' &&
        (fallback?.kind !== 'value' || entry.fetchedAt > fallback.fetchedAt)
      ) {
        fallback = entry;
      }
    }
    this.options.metrics.cache.inc({ kind: spec.kind, result: 'miss' });
    try {
      const data = await this.upstream.call(spec.endpoint, options.requester, spec.fetch);
      const entry: Entry = { kind: 'value', data, fetchedAt: this.now() };
      setTtl(life.freshMs);
      this.share(spec.key, entry, life);
      for (const alias of spec.aliases?.(data) ?? []) {
        if (alias === spec.key) continue;
        this.memory.set(alias, entry, { ttl: life.freshMs });
        this.share(alias, entry, life);
      }
      return entry;
    } catch (error) {
      if (error instanceof NotFoundError) {
        const entry: Entry = { kind: 'not_found', fetchedAt: this.now() };
        setTtl(this.negativeTtlMs);
        this.share(spec.key, entry, life);
        return entry;
      }
      if (fallback) this.failures.set(fallback, error);
      // lru-cache serves its own stale entry on rejection; one kept only in Redis is served
      // here, already stale.
      if (fallback && fallback !== stale && servesStale(error)) {
        setTtl(1);
        return fallback;
      }
      throw error;
    }
  }

  /** What lru-cache gave back, as an answer: fresh, cached, or kept because the ERP failed. */
  private answer<T>(
    spec: Spec<T>,
    entry: Entry,
    served: { hit: boolean; revalidating: boolean },
    startedAt: number,
  ): Fetched<T> {
    const cached = served.hit || served.revalidating;
    const failure = cached ? undefined : this.failures.get(entry);
    if (failure !== undefined && entry.fetchedAt < startedAt) {
      if (!servesStale(failure) || entry.kind === 'not_found') throw failure;
      return this.serveStale(spec, entry, failure);
    }
    const fromCache = cached || entry.fetchedAt < startedAt;
    if (entry.kind === 'not_found') {
      if (fromCache) this.options.metrics.cache.inc({ kind: spec.kind, result: 'negative' });
      throw new NotFoundError(
        fromCache ? 'Not found (remembered from a recent lookup)' : 'Not found',
        { endpoint: spec.endpoint, statusCode: 404 },
      );
    }
    return this.served(spec.kind, entry, fromCache);
  }

  /** A value as answered, fresh: counted as a hit when it came from the cache. */
  private served<T>(
    kind: CacheKind,
    entry: Entry & { kind: 'value' },
    fromCache: boolean,
  ): Fetched<T> {
    if (fromCache) this.options.metrics.cache.inc({ kind, result: 'hit' });
    return {
      // Entries under a key are written only by that key's spec: see typed().
      data: entry.data as T,
      freshness: { fetchedAt: new Date(entry.fetchedAt), fromCache, stale: false },
    };
  }

  private serveStale<T>(
    spec: Spec<T>,
    entry: Entry & { kind: 'value' },
    error: unknown,
  ): Fetched<T> {
    this.options.metrics.cache.inc({ kind: spec.kind, result: 'stale' });
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
    this.options.logger.warn(
      { endpoint: spec.endpoint, code, ageMs: this.now() - entry.fetchedAt },
      'ERP failed; serving the cached answer',
    );
    const freshness: Freshness = {
      fetchedAt: new Date(entry.fetchedAt),
      fromCache: true,
      // Served because the ERP failed, even when still within its lifetime (a failed
      // Refresh): the user must see that this is not what they asked for.
      stale: true,
    };
    // Only busy (our own budget), not failing: the views must not say the ERP is down.
    if (error instanceof BusyError) freshness.staleBecause = 'busy';
    return { data: this.typed(spec, entry.data), freshness };
  }

  /**
   * Entries under a key are written only by that key's spec (its fetch, or Redis parsed with
   * its schema), so the data has the spec's type; one cast, here, instead of a parse per hit.
   */
  private typed<T>(_spec: Spec<T>, data: unknown): T {
    return data as T;
  }

  private freshMs(entry: Entry, life: Lifetime): number {
    return entry.kind === 'not_found' ? this.negativeTtlMs : life.freshMs;
  }

  private isFresh(entry: Entry, life: Lifetime): boolean {
    return this.now() < entry.fetchedAt + this.freshMs(entry, life);
  }

  /** How long an entry is kept: its fresh time plus the stale window (a 404: its short life). */
  private keepMs(entry: Entry, life: Lifetime): number {
    return entry.kind === 'not_found' ? this.negativeTtlMs : life.freshMs + life.staleMs;
  }

  private share(key: string, entry: Entry, life: Lifetime): void {
    const keepMs = entry.fetchedAt + this.keepMs(entry, life) - this.now();
    if (keepMs > 0) this.shared?.set(key, entry, keepMs);
  }
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
