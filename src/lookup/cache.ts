/**
 * Two cache levels: lru-cache in process, and (shared mode) Redis behind it so replicas share
 * answers. Both hold the same entry shape: the data with the time the ERP produced it, or a
 * "not found" marker (a negative entry, kept for a short time).
 *
 * The memory level is lru-cache doing what it does: `fetch()` with a `fetchMethod` coalesces
 * concurrent identical lookups, `ttl` (set per entry by the fetch) is the freshness of each
 * kind, `allowStale` serves a stale entry while it revalidates in the background,
 * `allowStaleOnFetchRejection` serves the last answer when the ERP fails, `forceRefresh` is
 * the Refresh button, and `maxSize` + `sizeCalculation` bound it in bytes. Entries are kept
 * past their freshness for stale serving; the service drops them when too old to serve.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { credentialTag } from '../erp/api.js';
import type { RedisHealth } from './redis.js';

export type Entry =
  | { kind: 'value'; data: unknown; fetchedAt: number }
  | { kind: 'not_found'; fetchedAt: number };

/** What one `fetch()` call hands to the fetchMethod: how to load this key on a miss. */
export interface FetchContext {
  load(stale: Entry | undefined, setTtl: (ttlMs: number) => void): Promise<Entry>;
}

export type MemoryCache = LRUCache<string, Entry, FetchContext>;

/** Rough bytes for the memory bound: UTF-16 JSON plus a fixed overhead per entry. */
function entryBytes(entry: Entry, key: string): number {
  const json = entry.kind === 'value' ? JSON.stringify(entry.data) : '';
  return (json.length + key.length) * 2 + 200;
}

export function createMemoryCache(maxBytes: number, now: () => number): MemoryCache {
  if (!Number.isFinite(maxBytes) || maxBytes < 1024) {
    throw new RangeError('maxBytes must be at least 1024');
  }
  return new LRUCache<string, Entry, FetchContext>({
    maxSize: maxBytes,
    sizeCalculation: entryBytes,
    // A default only: every entry is written with the ttl of its kind.
    ttl: 60_000,
    // Stale entries stay (for stale serving) until evicted or dropped by the service, which
    // bounds their age; the injected clock drives expiry so tests control time.
    ttlAutopurge: false,
    noDeleteOnStaleGet: true,
    // An entry evicted while its fetch runs still answers the callers waiting on it.
    ignoreFetchAbort: true,
    // lru-cache reads a start time of 0 as "no ttl": the offset keeps a clock that starts at
    // 0 (fake timers) working; only differences of this clock are ever used.
    perf: { now: () => now() + 1 },
    fetchMethod: (_key, stale, { context, options }) =>
      context.load(stale, (ttlMs) => {
        // lru-cache calls an entry stale only past its ttl; ours is stale at its lifetime.
        options.ttl = Math.max(1, Math.ceil(ttlMs) - 1);
      }),
  });
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
