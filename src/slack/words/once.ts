/**
 * Each message answered once. Slack delivers an event again when it did not see the
 * acknowledgement in time (`X-Slack-Retry-Num` over HTTP, `retry_attempt` in Socket Mode: Bolt
 * hands both over as `context.retryNum`); the listeners drop those, and this gate drops any
 * second delivery of the same message (its channel and timestamp) that arrives otherwise.
 * With Redis, the first replica to claim a message answers it; without, this process.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

/** Slack retries within minutes; a claim outlives them. */
const CLAIM_MS = 10 * 60_000;

export interface OnceGate {
  /** True for the first claim of `key`; false for every later one. */
  claim(key: string): Promise<boolean>;
}

export function memoryOnceGate(max = 10_000): OnceGate {
  const seen = new LRUCache<string, true>({ max, ttl: CLAIM_MS });
  return {
    claim: (key) => {
      if (seen.has(key)) return Promise.resolve(false);
      seen.set(key, true);
      return Promise.resolve(true);
    },
  };
}

/** Shared by the replicas; when Redis cannot answer, this replica's own memory decides. */
export function redisOnceGate(redis: Redis, prefix: string): OnceGate {
  const local = memoryOnceGate();
  return {
    async claim(key) {
      if (!(await local.claim(key))) return false;
      try {
        return (await redis.set(`${prefix}words:once:${key}`, '1', 'PX', CLAIM_MS, 'NX')) === 'OK';
      } catch {
        return true;
      }
    },
  };
}

/** The key of one message: its conversation and timestamp. */
export const messageKey = (channel: string, ts: string) => `${channel}:${ts}`;
