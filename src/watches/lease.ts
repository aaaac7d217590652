/**
 * Which replica checks: exactly one at a time. With Redis, a lease (SET NX PX, renewed by its
 * holder, as the catalogue crawl does); without Redis but on PostgreSQL, a session advisory
 * lock held on one pooled connection (released by the server if the replica dies); embedded,
 * there is only one process.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';

export interface CheckerLease {
  /** Takes the lease or renews it; true while this replica holds it. */
  hold(): Promise<boolean>;
  release(): Promise<void>;
}

export const soleProcessLease: CheckerLease = {
  hold: async () => true,
  release: async () => {},
};

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** `key` e.g. `erp-lookups:watches:<credential hash>:lease`. */
export function redisLease(redis: Redis, key: string, leaseMs: number): CheckerLease {
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

/** An arbitrary constant: the advisory lock's id for "the watch checker". */
export const CHECKER_LOCK_ID = 0x77617463; // "watc"

export function advisoryLease(pool: pg.Pool, lockId = CHECKER_LOCK_ID): CheckerLease {
  let held: pg.PoolClient | undefined;
  const drop = (client: pg.PoolClient, broken: boolean) => {
    if (held === client) held = undefined;
    client.release(broken);
  };
  return {
    async hold() {
      if (held !== undefined) {
        // Still our session? A dropped connection has lost the lock with it.
        const client = held;
        try {
          await client.query('select 1');
          return true;
        } catch {
          drop(client, true);
        }
      }
      const client = await pool.connect();
      try {
        const result = await client.query<{ locked: boolean }>(
          'select pg_try_advisory_lock($1) as locked',
          [lockId],
        );
        if (result.rows[0]?.locked === true) {
          held = client;
          client.on('error', () => drop(client, true));
          return true;
        }
        client.release();
        return false;
      } catch (error) {
        client.release(true);
        throw error;
      }
    },
    async release() {
      const client = held;
      if (client === undefined) return;
      held = undefined;
      try {
        await client.query('select pg_advisory_unlock($1)', [lockId]);
        client.release();
      } catch {
        client.release(true);
      }
    },
  };
}
