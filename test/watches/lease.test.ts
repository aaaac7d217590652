import { Redis } from 'ioredis';
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
