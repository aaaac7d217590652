/**
 * The lookup cache: every answer's freshness and failures in one place, over two levels:
 * lru-cache in process, and (shared mode) Redis behind it so replicas share answers. Both
 * hold the same entry shape: the data with the time the ERP produced it, or a "not found"
 * marker (a negative entry, kept for a short time). The service asks it three things: is a
 * fresh answer in memory (`fresh`), and otherwise, through `read`, is the answer fresh,
 * stale but servable because the ERP failed in a way a later call may not, or an error.
 *
 * The memory level is lru-cache doing what it does: `fetch()` with a `fetchMethod` coalesces
 * concurrent identical lookups, `ttl` (set per entry from its lifetime) is the freshness of
 * each kind, `allowStale` serves a stale entry while it revalidates in the background,
 * `allowStaleOnFetchRejection` serves the last answer when the ERP fails, `forceRefresh` is
 * the Refresh button, and `maxSize` + `sizeCalculation` bound it in bytes. Entries are kept
 * past their freshness for stale serving, and dropped here once too old to serve.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { NotFoundError, UnavailableError } from '../erp/errors.js';
import { credentialTag } from '../erp/schemas.js';
import type { RedisHealth } from './redis.js';
import type { LifetimeKind } from './resources.js';
import { isTransient } from './types.js';

type Entry =
  | { kind: 'value'; data: unknown; fetchedAt: number }
  | { kind: 'not_found'; fetchedAt: number };

export type ValueEntry = Entry & { kind: 'value' };

/** How long answers live; each TSDoc is the service option of the same name. */
export interface CacheLifetimes {
  /** How long items (and item searches) are fresh (CACHE_TTL_SECONDS). */
  ttlMs: number;
  /** How long contacts (personal data) and contact searches are fresh; shorter than ttlMs. */
  contactTtlMs: number;
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
}

interface LookupCacheOptions extends CacheLifetimes {
  /** Memory bound in bytes (approximate: UTF-16 JSON size of each entry). */
  maxBytes: number;
  /** Shared mode: the second level. */
  shared?: RedisCache;
  /** Clock in ms; drives every lifetime, lru-cache's included. */
  now: () => number;
}

/** One read of one key: what the cache needs besides the key. */
export interface CacheRead<T> {
  lifetime: LifetimeKind;
  /** Parses the shared level's copy: another version of the app may have written it. */
  schema: z.ZodType<T>;
  /** Skips every fresh copy (the Refresh button). */
  refresh: boolean;
  /**
   * The ERP's answer, called when no level holds a fresh one; a `NotFoundError` is
   * remembered as a negative entry, any other failure may be answered by a kept entry.
   */
  load(): Promise<T>;
  /** Other keys the same answer is known under (an item fetched by id is also its code). */
  aliases?(data: T): string[];
}

/**
 * What a read answers when it does not throw: an entry within its lifetime (`fromCache` when
 * it predates the read), or a kept value standing in for the ERP's `failure`.
 */
export type CacheAnswer =
  | { kind: 'answer'; entry: Entry; fromCache: boolean }
  | { kind: 'stale'; entry: ValueEntry; failure: unknown };

interface Lifetime {
  freshMs: number;
  /** How long past freshness the entry may still be served when the ERP fails. */
  staleMs: number;
}

/** What one `fetch()` call hands to the fetchMethod: how to load this key on a miss. */
interface FetchContext {
  lifetime: Lifetime;
  load(stale: Entry | undefined): Promise<Entry>;
}

type MemoryCache = LRUCache<string, Entry, FetchContext>;
type Status = LRUCache.Status<string, Entry, FetchContext>;

const HOUR = 3_600_000;
const CONTACT_STALE_CAP_MS = 600_000;

/** Rough bytes for the memory bound: UTF-16 JSON plus a fixed overhead per entry. */
function entryBytes(entry: Entry, key: string): number {
  const json = entry.kind === 'value' ? JSON.stringify(entry.data) : '';
  return (json.length + key.length) * 2 + 200;
}

export class LookupCache {
  private readonly now: () => number;
  private readonly memory: MemoryCache;
  private readonly shared: RedisCache | undefined;
  private readonly lifetimes: Record<LifetimeKind, Lifetime>;
  private readonly negativeTtlMs: number;
  private readonly revalidateMs: number;
  /** Why a kept entry was last served instead of a new answer (the ERP's failure). */
  private readonly failures = new WeakMap<Entry, unknown>();

  constructor(options: LookupCacheOptions) {
    if (options.ttlMs <= 0 || options.contactTtlMs <= 0)
      throw new RangeError('cache lifetimes must be > 0');
    if (!Number.isFinite(options.maxBytes) || options.maxBytes < 1024) {
      throw new RangeError('maxBytes must be at least 1024');
    }
    this.now = options.now;
    this.shared = options.shared;
    this.lifetimes = {
      items: { freshMs: options.ttlMs, staleMs: options.staleForMs ?? HOUR },
      contacts: {
        freshMs: options.contactTtlMs,
        staleMs: Math.min(options.staleForMs ?? CONTACT_STALE_CAP_MS, CONTACT_STALE_CAP_MS),
      },
    };
    this.negativeTtlMs = options.negativeTtlMs ?? 15_000;
    this.revalidateMs = options.revalidateInBackgroundMs ?? 0;
    const now = options.now;
    this.memory = new LRUCache<string, Entry, FetchContext>({
      maxSize: options.maxBytes,
      sizeCalculation: entryBytes,
      // A default only: every entry is written with the ttl of its kind.
      ttl: 60_000,
      // Stale entries stay (for stale serving) until evicted or dropped by `read`, which
      // bounds their age; the injected clock drives expiry so tests control time.
      ttlAutopurge: false,
      noDeleteOnStaleGet: true,
      // An entry evicted while its fetch runs still answers the callers waiting on it.
      ignoreFetchAbort: true,
      // lru-cache reads a start time of 0 as "no ttl": the offset keeps a clock that starts at
      // 0 (fake timers) working; only differences of this clock are ever used.
      perf: { now: () => now() + 1 },
      fetchMethod: async (_key, stale, { context, options: set }) => {
        const entry = await context.load(stale);
        set.ttl = this.memoryTtl(entry, context.lifetime);
        return entry;
      },
    });
  }

  /**
   * Fresh? A value within its lifetime in memory, or undefined: the common case without
   * lru-cache's fetch machinery (its options, status and promise cost a cached /stock more
   * than the card's cache read). lru-cache's get() hands back only entries within their ttl.
   */
  fresh(key: string): ValueEntry | undefined {
    const entry = this.memory.get(key);
    return entry?.kind === 'value' ? entry : undefined;
  }

  /**
   * The answer for `key`, from, in order: memory if fresh (or within the revalidation window,
   * refreshed in the background); a load already in flight for the key; Redis if fresh;
   * `read.load()`. When that load fails in a way a later call may not, the newest entry still
   * servable answers, marked stale; any other failure is thrown, as is a failure behind a
   * remembered 404.
   */
  async read<T>(key: string, read: CacheRead<T>): Promise<CacheAnswer> {
    const life = this.lifetimes[read.lifetime];
    const askedAt = this.now();
    const kept = this.servable(key, life, askedAt);
    const status: Status = {};
    const fetching = this.memory.fetch(key, {
      forceRefresh: read.refresh,
      allowStale: !read.refresh && this.revalidatesInBackground(kept, life, askedAt),
      // The last answer when the ERP fails (read() decides below whether the failure allows it).
      allowStaleOnFetchRejection: kept?.kind === 'value',
      status,
      context: { lifetime: life, load: (stale) => this.load(key, read, life, stale) },
    });
    // Read now: a stale entry handed back at once while lru-cache revalidates it in the
    // background (later, returnedStale also marks a stale entry served after a rejection).
    const revalidating = status.returnedStale === true;
    const entry = await fetching;
    if (entry === undefined) throw new Error(`lookup cache gave nothing for ${read.lifetime}`);
    const cached = status.fetch === 'hit' || revalidating;
    const failure = cached ? undefined : this.failedRecently(entry, askedAt);
    if (failure !== undefined) {
      if (!servesStale(failure) || entry.kind === 'not_found') throw failure;
      return { kind: 'stale', entry, failure };
    }
    return { kind: 'answer', entry, fromCache: cached || entry.fetchedAt < askedAt };
  }

  /**
   * The value kept in memory for `key`, fresh or still servable stale, or undefined: a read
   * only (no load, no refresh, no eviction, nothing counted), for what is drawn without an
   * ERP call (App Home's recent items).
   */
  peek(key: string, lifetime: LifetimeKind): ValueEntry | undefined {
    const entry = this.servable(key, this.lifetimes[lifetime], this.now(), false);
    return entry?.kind === 'value' ? entry : undefined;
  }

  /** Whether a peeked value is still fresh (within its kind's lifetime). */
  isFreshValue(entry: ValueEntry, lifetime: LifetimeKind): boolean {
    return this.isFresh(entry, this.lifetimes[lifetime]);
  }

  /** Drops every entry held in memory (the shared level is left to its own expiry). */
  clear(): void {
    this.memory.clear();
  }

  /**
   * Stale but servable? The entry kept for `key`, fresh or not; one too old even to serve
   * stale is dropped (contacts are personal data: never kept longer), unless `drop` is false
   * (a read only).
   */
  private servable(key: string, life: Lifetime, at: number, drop = true): Entry | undefined {
    const entry = this.memory.peek(key, { allowStale: true });
    if (entry && at - entry.fetchedAt >= this.keepMs(entry, life)) {
      if (drop) this.memory.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Within the window where a kept value answers at once while it is fetched again. */
  private revalidatesInBackground(entry: Entry | undefined, life: Lifetime, at: number): boolean {
    return entry?.kind === 'value' && at - entry.fetchedAt < life.freshMs + this.revalidateMs;
  }

  /**
   * Failed recently? The ERP failure that made the cache answer with `entry`, an entry it
   * kept from before `since`; undefined for an answer the ERP gave.
   */
  private failedRecently(entry: Entry, since: number): unknown {
    return entry.fetchedAt < since ? this.failures.get(entry) : undefined;
  }

  /** The fetchMethod for one key: Redis if fresh, else `read.load()`, kept in both levels. */
  private async load<T>(
    key: string,
    read: CacheRead<T>,
    life: Lifetime,
    stale: Entry | undefined,
  ): Promise<Entry> {
    let fallback = stale;
    if (!read.refresh && this.shared) {
      const entry = await this.shared.get(key, read.schema);
      if (entry && this.isFresh(entry, life)) {
        // Another replica's answer: held under its other keys here too (App Home peeks an
        // item fetched by id under its code), as this replica's own answer would be.
        this.alias(key, read, entry, life, false);
        return entry;
      }
      if (
        entry?.kind === 'value' &&
        (fallback?.kind !== 'value' || entry.fetchedAt > fallback.fetchedAt)
      ) {
        fallback = entry;
      }
    }
    try {
      const data = await read.load();
      const entry: Entry = { kind: 'value', data, fetchedAt: this.now() };
      this.share(key, entry, life);
      this.alias(key, read, entry, life, true);
      return entry;
    } catch (error) {
      if (error instanceof NotFoundError) {
        const entry: Entry = { kind: 'not_found', fetchedAt: this.now() };
        this.share(key, entry, life);
        return entry;
      }
      if (fallback) this.failures.set(fallback, error);
      // lru-cache serves its own stale entry on rejection; one kept only in Redis is served
      // here, already stale (its memory ttl is the shortest there is).
      if (fallback && fallback !== stale && servesStale(error)) return fallback;
      throw error;
    }
  }

  /** Keeps a value under the other keys it is known by, in memory and (`share`) in Redis. */
  private alias<T>(key: string, read: CacheRead<T>, entry: Entry, life: Lifetime, share: boolean) {
    if (entry.kind !== 'value') return;
    for (const alias of read.aliases?.(entry.data as T) ?? []) {
      if (alias === key) continue;
      this.memory.set(alias, entry, { ttl: this.memoryTtl(entry, life) });
      if (share) this.share(alias, entry, life);
    }
  }

  private freshMs(entry: Entry, life: Lifetime): number {
    return entry.kind === 'not_found' ? this.negativeTtlMs : life.freshMs;
  }

  private isFresh(entry: Entry, life: Lifetime): boolean {
    return this.now() < entry.fetchedAt + this.freshMs(entry, life);
  }

  /** The rest of an entry's freshness as lru-cache's ttl, which calls it stale only past it. */
  private memoryTtl(entry: Entry, life: Lifetime): number {
    const freshForMs = entry.fetchedAt + this.freshMs(entry, life) - this.now();
    return Math.max(1, Math.ceil(freshForMs) - 1);
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

/**
 * The ERP (or the budget) failed in a way that a later call may not: an old answer helps.
 * What may pass (isTransient), and an answer too large to read, which an older one was not.
 */
function servesStale(error: unknown): boolean {
  return isTransient(error) || error instanceof UnavailableError;
}

const StoredEntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('value'), data: z.unknown(), fetchedAt: z.number().int() }),
  z.object({ kind: z.literal('not_found'), fetchedAt: z.number().int() }),
]);

/** The shared level. Every failure is swallowed into RedisHealth: Redis is an optimisation. */
export class RedisCache {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly health: RedisHealth,
    keyPrefix: string,
    credentialKey: string,
  ) {
    // Per credential (another tenant's answers must never be served), hashed so the key
    // carries no company code or URL.
    const credential = credentialTag(credentialKey);
    this.prefix = `${keyPrefix}cache:${credential}:`;
  }

  async get<T>(key: string, schema: z.ZodType<T>): Promise<Entry | undefined> {
    if (!this.health.usable()) return undefined;
    let raw: string | null;
    try {
      raw = await this.redis.get(this.prefix + key);
      this.health.succeeded();
    } catch (error) {
      this.health.failed(error);
      return undefined;
    }
    if (raw === null) return undefined;
    // Redis is a boundary too: another version of the app may have written this entry.
    const parsed = StoredEntrySchema.safeParse(safeJson(raw));
    if (!parsed.success) return undefined;
    if (parsed.data.kind === 'not_found') return parsed.data;
    const data = schema.safeParse(parsed.data.data);
    return data.success
      ? { kind: 'value', data: data.data, fetchedAt: parsed.data.fetchedAt }
      : undefined;
  }

  set(key: string, entry: Entry, keepMs: number): void {
    if (!this.health.usable()) return;
    this.redis
      .set(this.prefix + key, JSON.stringify(entry), 'PX', Math.max(1, Math.ceil(keepMs)))
      .then(
        () => this.health.succeeded(),
        (error: unknown) => this.health.failed(error),
      );
  }
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
