/**
 * Each user's recent item lookups for App Home: item codes only (never contacts), a few per
 * user, kept for an hour; in Redis when configured so any replica can show them.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

const KEEP = 8;
const TTL_MS = 3_600_000;

export interface RecentLookups {
  record(userId: string, code: string): void;
  list(userId: string): Promise<string[]>;
}

export function createRecentLookups(redis?: { client: Redis; prefix: string }): RecentLookups {
  if (redis) {
    const key = (userId: string) => `${redis.prefix}recent:${userId}`;
    return {
      record(userId, code) {
        const k = key(userId);
        // Best effort: a lost entry costs a line on App Home, never a lookup.
        redis.client
          .multi()
          .lrem(k, 0, code)
          .lpush(k, code)
          .ltrim(k, 0, KEEP - 1)
          .pexpire(k, TTL_MS)
          .exec()
          .catch(() => undefined);
      },
      async list(userId) {
        try {
          return await redis.client.lrange(key(userId), 0, KEEP - 1);
        } catch {
          return [];
        }
      },
    };
  }
  const memory = new LRUCache<string, string[]>({ max: 10_000, ttl: TTL_MS });
  return {
    record(userId, code) {
      const known = memory.get(userId, { updateAgeOnGet: true }) ?? [];
      // The same code again (a user checking one item over and over): nothing moves.
      if (known[0] === code) return;
      memory.set(userId, [code, ...known.filter((other) => other !== code)].slice(0, KEEP));
    },
    list: async (userId) => memory.get(userId) ?? [],
  };
}
