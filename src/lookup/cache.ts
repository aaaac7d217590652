/**
 * Two cache levels: an in-process LRU bounded in bytes, and (shared mode) Redis behind it so
 * replicas share answers. Both hold the same entry shape: the data with the time the ERP
 * produced it, or a "not found" marker. Freshness is decided by the service from `fetchedAt`;
 * the caches only bound how long an entry is kept (fresh time plus the stale window).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { RedisHealth } from './redis.js';

export type Entry =
  | { kind: 'value'; data: unknown; fetchedAt: number }
  | { kind: 'not_found'; fetchedAt: number };

/** Rough bytes for the memory bound: UTF-16 JSON plus a fixed overhead per entry. */
function entryBytes(entry: Entry, key: string): number {
  const json = entry.kind === 'value' ? JSON.stringify(entry.data) : '';
  return (json.length + key.length) * 2 + 200;
}

export class MemoryCache {
  private readonly lru: LRUCache<string, Entry>;

  constructor(maxBytes: number, now: () => number) {
    if (!Number.isFinite(maxBytes) || maxBytes < 1024) {
      throw new RangeError('maxBytes must be at least 1024');
    }
    this.lru = new LRUCache<string, Entry>({
      maxSize: maxBytes,
      sizeCalculation: entryBytes,
      // Kept past freshness for stale serving, never longer than asked (contacts are personal
      // data); the injected clock drives expiry so tests control time.
      ttlAutopurge: false,
      perf: { now },
    });
  }

  get(key: string): Entry | undefined {
    return this.lru.get(key);
  }

  set(key: string, entry: Entry, keepMs: number): void {
    this.lru.set(key, entry, { ttl: Math.max(1, Math.ceil(keepMs)) });
  }

  get bytes(): number {
    return this.lru.calculatedSize;
  }

  get size(): number {
    return this.lru.size;
  }

  clear(): void {
    this.lru.clear();
  }
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
    const credential = createHash('sha256').update(credentialKey).digest('hex').slice(0, 16);
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
