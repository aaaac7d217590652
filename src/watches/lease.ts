/**
 * Which replica checks: exactly one at a time. With Redis, a lease (SET NX PX, renewed by its
 * holder, as the catalogue crawl does); without Redis but on PostgreSQL, a session advisory
 * lock held on one pooled connection (released by the server if the replica dies); embedded,
 * there is only one process.
 */
import type pg from 'pg';
import type { Lease } from '../ops/redisLease.js';

export { redisLease } from '../ops/redisLease.js';

export type CheckerLease = Lease;

export const soleProcessLease: CheckerLease = {
  hold: async () => true,
  release: async () => {},
};

/** An arbitrary constant: the advisory lock's id for "the watch checker". */
const CHECKER_LOCK_ID = 0x77617463; // "watc"

export function advisoryLease(pool: pg.Pool, lockId = CHECKER_LOCK_ID): CheckerLease {
  let held: pg.PoolClient | undefined;
  /**
   * Gives the held session back to the pool, once. A lost connection is heard twice (the
   * query fails and the client emits `error`), and pg-pool throws on a second release.
   */
  const drop = (client: pg.PoolClient, broken: boolean) => {
    if (held !== client) return;
    held = undefined;
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
      // Not ours from here on: an error the client emits while it unlocks is this catch's.
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
