/**
 * A key claimed once: the first claim of a key passes, every later one fails until the claim
 * expires (its lifetime is the caller's) or is released. With Redis the claim is `SET NX PX`,
 * so the first replica to claim a key has it; without, this process's memory (lru-cache)
 * decides. A Redis that does not answer never stops a claim: this replica's memory decides.
 * The words' once-per-message gate and the repeated Share press each use one.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

export interface OnceGate {
  /** True for the first claim of `key` within the gate's lifetime; false after. Never throws. */
  claim(key: string): Promise<boolean>;
  /** Lets `key` be claimed again (what claimed it did nothing). Never throws. */
  release(key: string): Promise<void>;
}

export interface OnceGateOptions {
  /** How long a claim holds, in milliseconds. */
  ttlMs: number;
  /** Shared mode: the claims of every replica. */
  redis?: Redis;
  /** Before every claim's Redis key. */
  keyPrefix?: string;
  /**
   * With Redis: this replica's memory is asked first and remembers every claim, so a key it
   * has seen costs no round trip; but then a key another replica released stays taken here
   * until it expires. Without (the default), Redis alone decides while it answers, and memory
   * only while it does not.
   */
  memoryFirst?: boolean;
  /** Told when Redis did not answer (memory decided, or the release reached memory only). */
  onRedisError?: (error: unknown, doing: 'claim' | 'release') => void;
  /** Milliseconds clock for memory's expiry; `performance.now` by default. */
  now?: () => number;
}

export function onceGate(options: OnceGateOptions): OnceGate {
  const { ttlMs, redis, keyPrefix = '', memoryFirst = false, onRedisError, now } = options;
  const seen = new LRUCache<string, true>({
    max: 10_000,
    ttl: ttlMs,
    ...(now ? { perf: { now }, ttlResolution: 0 } : {}),
  });
  const inMemory = (key: string) => {
    if (seen.has(key)) return false;
    seen.set(key, true);
    return true;
  };

  return {
    async claim(key) {
      if (!redis) return inMemory(key);
      if (memoryFirst && !inMemory(key)) return false;
      try {
        return (await redis.set(`${keyPrefix}${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
      } catch (error) {
        onRedisError?.(error, 'claim');
        // Memory first has already claimed the key there.
        return memoryFirst || inMemory(key);
      }
    },

    async release(key) {
      seen.delete(key);
      if (!redis) return;
      try {
        await redis.del(`${keyPrefix}${key}`);
      } catch (error) {
        onRedisError?.(error, 'release');
      }
    },
  };
}
