/**
 * The lookup service: what every surface calls (see types.ts for the contract, and
 * docs/architecture.md for the why). It reads as: resource descriptions (resources.ts) → the
 * lookup cache (cache.ts: lru-cache's coalescing, freshness per kind, stale serving, Refresh,
 * the Redis second level, and the record of why a kept answer was served) → the budget
 * ledger (ledger.ts, fairQueue.ts) → cockatiel policies (upstream.ts) → the ERP.
 *
 * A lookup is answered, in order, from: the memory cache if fresh; a call already in flight
 * for the same key; Redis if fresh (shared mode); the ERP through the budget queue; and, if
 * the ERP fails with a retryable error (or the budget is busy), the newest entry still kept,
 * marked stale. The cache decides which of these answers; this service turns its answer into
 * what surfaces read, and counts and logs it.
 */
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import { type ErpEndpoint, NotFoundError } from '../erp/errors.js';
import type { Contact, ErpApi, ErpRef, Item } from '../erp/schemas.js';
import type { AppLogger } from '../log/logger.js';
import {
  type CacheAnswer,
  type CacheLifetimes,
  LookupCache,
  RedisCache,
  type ValueEntry,
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

interface LookupServiceOptions extends CacheLifetimes {
  /** The ERP; `erp.credentialKey` names the cache, so replicas on one credential share it. */
  erp: ErpApi;
  /**
   * The budget lanes and policies every ERP call goes through, built by the composition root
   * (`createUpstream`) so the start-up check, the crawl and watches share the same ledger.
   */
  upstream: Upstream;
  /** Memory cache bound in bytes (approximate: UTF-16 JSON size of each entry). */
  maxBytes: number;
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

const DEFAULT_KEY_PREFIX = 'erp-lookups:';

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
  private readonly cache: LookupCache;
  private readonly lanes: Record<ErpEndpoint, Lane>;
  private readonly upstream: Upstream;

  constructor(
    private readonly options: LookupServiceOptions,
    /** Closes what this service built for itself (a standalone service's budget). */
    private readonly closeOwned: (() => void) | undefined,
  ) {
    this.now = options.now ?? Date.now;
    const shared =
      options.shared &&
      new RedisCache(
        options.shared.redis,
        options.shared.health,
        options.keyPrefix ?? DEFAULT_KEY_PREFIX,
        options.erp.credentialKey,
      );
    this.cache = new LookupCache({ ...options, shared, now: this.now });
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

  peekItem(ref: ErpRef): Fetched<Item> | undefined {
    const entry = this.cache.peek(recordKey(ITEMS.record, ref), ITEMS.record.lifetime);
    if (entry === undefined) return undefined;
    const fresh = this.cache.isFreshValue(entry, ITEMS.record.lifetime);
    return {
      // Entries under a key are written only by that key's spec: see typed().
      data: entry.data as Item,
      freshness: { fetchedAt: new Date(entry.fetchedAt), fromCache: true, stale: !fresh },
    };
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
    this.cache.clear();
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

  /** The common case, a fresh answer in memory, before any of the generic path's work. */
  private freshHit<T>(kind: CacheKind, key: string): Fetched<T> | undefined {
    const entry = this.cache.fresh(key);
    return entry ? this.served(kind, entry, true) : undefined;
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
    const reading = this.cache.read(spec.key, {
      lifetime: spec.lifetime,
      schema: spec.schema,
      refresh: options.refresh === true,
      aliases: spec.aliases,
      load: () => {
        this.options.metrics.cache.inc({ kind: spec.kind, result: 'miss' });
        return this.upstream.call(spec.endpoint, options.requester, spec.fetch);
      },
    });
    return this.answer(spec, await abortable(reading, options.signal));
  }

  /** What the cache gave back, as an answer: fresh, cached, or kept because the ERP failed. */
  private answer<T>(spec: Spec<T>, answer: CacheAnswer): Fetched<T> {
    if (answer.kind === 'stale') return this.serveStale(spec, answer.entry, answer.failure);
    const { entry, fromCache } = answer;
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
  private served<T>(kind: CacheKind, entry: ValueEntry, fromCache: boolean): Fetched<T> {
    if (fromCache) this.options.metrics.cache.inc({ kind, result: 'hit' });
    return {
      // Entries under a key are written only by that key's spec: see typed().
      data: entry.data as T,
      freshness: { fetchedAt: new Date(entry.fetchedAt), fromCache, stale: false },
    };
  }

  private serveStale<T>(spec: Spec<T>, entry: ValueEntry, error: unknown): Fetched<T> {
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
