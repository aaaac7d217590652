/**
 * A lease in Redis: one replica at a time holds `key` (SET NX PX) and renews it while it
 * works; another takes it once it expires. Only the holder's token renews or releases it.
 * The catalogue crawl and the watch checker each hold one.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface Lease {
  /** Takes the lease or renews it; true while this replica holds it. */
  hold(): Promise<boolean>;
  release(): Promise<void>;
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export function redisLease(redis: Redis, key: string, leaseMs: number): Lease {
  const token = randomUUID();
  return {
    async hold() {
      const renewed = await redis.eval(RENEW, 1, key, token, leaseMs);
      if (renewed === 1) return true;
      return (await redis.set(key, token, 'PX', leaseMs, 'NX')) === 'OK';
    },
    async release() {
      await redis.eval(RELEASE, 1, key, token);
    },
  };
}
