import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openWatchStore, type WatchStore } from '../../src/watches/database.js';
import { advisoryLease, redisLease } from '../../src/watches/lease.js';
import { redisAnswers } from '../helpers/redis.js';
import { openFresh, requireValue, STORE_CASES } from './stores.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('the checker lease', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('on PostgreSQL (no Redis): one replica holds the advisory lock; the other takes it once released or gone', async () => {
    const opened = await openFresh(requireValue(STORE_CASES.find((c) => c.name === 'postgres')));
    cleanups.push(opened.drop);
    const a: WatchStore = opened.store;
    const b = await openWatchStore(opened.options);
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const lockId = 0x7700 + (process.pid % 1000);
    const first = advisoryLease(requireValue(a.pool), lockId);
    const second = advisoryLease(requireValue(b.pool), lockId);
    expect(await first.hold()).toBe(true);
    expect(await second.hold()).toBe(false);
    expect(await first.hold()).toBe(true); // renewing is holding still
    await first.release();
    expect(await second.hold()).toBe(true);
    expect(await first.hold()).toBe(false);
    // A replica that dies loses the lock with its connection (the timeout waits for it to go).
    await requireValue(a.pool).query(
      "select pg_terminate_backend(pid, 5000) from pg_locks where locktype = 'advisory' and objid = $1 and pid <> pg_backend_pid()",
      [lockId],
    );
    expect(await first.hold()).toBe(true);
    expect(await second.hold()).toBe(false);
    await first.release();
  });

  it('with Redis: one replica holds the lease until it releases it', async (context) => {
    if (!(await redisAnswers(REDIS_URL))) context.skip();
    const redis = new Redis(REDIS_URL);
    cleanups.push(() => redis.quit());
    const key = `erp-lookups-test:watches:${process.pid}:${Date.now()}:lease`;
    cleanups.push(() => redis.del(key));
    const first = redisLease(redis, key, 10_000);
    const second = redisLease(redis, key, 10_000);
    expect(await first.hold()).toBe(true);
    expect(await second.hold()).toBe(false);
    expect(await first.hold()).toBe(true);
    await first.release();
    expect(await second.hold()).toBe(true);
    expect(await first.hold()).toBe(false);
  });
});

/**
 * A pooled client as pg-pool hands it out: `release` throws when called twice, as pg-pool
 * does; `lose()` is a dropped connection, heard as pg hears it (the error event, then the
 * failed query).
 */
function fakeClient() {
  const client = Object.assign(new EventEmitter(), {
    releases: [] as boolean[],
    lost: false,
    async query(sql: string) {
      if (client.lost) throw new Error('Connection terminated unexpectedly');
      return { rows: sql.includes('pg_try_advisory_lock') ? [{ locked: true }] : [] };
    },
    release(broken?: boolean) {
      if (client.releases.length > 0)
        throw new Error('Release called on client which has already been released to the pool.');
      client.releases.push(broken === true);
    },
    lose() {
      client.lost = true;
      client.emit('error', new Error('terminating connection due to administrator command'));
    },
  });
  return client;
}

/** An advisory lease over a pool that hands out two fake clients, one after the other. */
function leaseOverTwoClients() {
  const clients = [fakeClient(), fakeClient()];
  let next = 0;
  const pool = { connect: async () => clients[next++] } as unknown as pg.Pool;
  return { clients, lease: advisoryLease(pool, 1) };
}

describe('the advisory lease, when its connection is lost', () => {
  it('gives the lost session back to the pool once, and takes a new one', async () => {
    const { clients, lease } = leaseOverTwoClients();
    expect(await lease.hold()).toBe(true);
    clients[0]?.lose();
    expect(await lease.hold()).toBe(true);
    expect(clients[0]?.releases).toEqual([true]);
    await lease.release();
    expect(clients[1]?.releases).toEqual([false]);
  });

  it('does not release again when the error comes after the failed renewal', async () => {
    const { clients, lease } = leaseOverTwoClients();
    expect(await lease.hold()).toBe(true);
    const lost = requireValue(clients[0]);
    lost.lost = true;
    expect(await lease.hold()).toBe(true);
    lost.emit('error', new Error('terminating connection due to administrator command'));
    expect(lost.releases).toEqual([true]);
  });
});
