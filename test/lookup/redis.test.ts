/**
 * Shared mode against a real redis-server: REDIS_URL (e.g. redis://127.0.0.1:6379) for the
 * shared cache and budget; a private redis-server child process for the outage test.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { RedisHealth } from '../../src/lookup/redis.js';
import { connectRedis } from '../../src/lookup/redisConnect.js';
import { RedisLedger } from '../../src/lookup/redisLedger.js';
import { freePort } from '../helpers/app.js';
import { collectingLogger } from '../helpers/logSink.js';
import {
  redisServerInstalled,
  sharedRedisOrSkip,
  startRedisServer,
  stopRedisServer,
} from '../helpers/redis.js';
import { FakeErp, makeService, maxInWindow, silentLogger } from './fakes.js';

const REDIS_URL = process.env.REDIS_URL;
const WINDOW_MS = 60_000;

const sharedAvailable = await sharedRedisOrSkip('the shared Redis tests');
if (!redisServerInstalled) {
  // biome-ignore lint/suspicious/noConsole: says why the outage test did not run
  console.warn('Skipping the Redis outage test: no redis-server binary on PATH');
}

const clients: Redis[] = [];
const prefixes: string[] = [];
function uniquePrefix(): string {
  const prefix = `test:${randomUUID()}:`;
  prefixes.push(prefix);
  return prefix;
}
function client(url: string): Redis {
  const redis = connectRedis(url, silentLogger);
  clients.push(redis);
  return redis;
}

afterAll(async () => {
  for (const redis of clients) redis.disconnect();
  if (!sharedAvailable || !REDIS_URL) return;
  // Leave the shared server as we found it.
  const cleaner = new Redis(REDIS_URL);
  for (const prefix of prefixes) {
    const keys = await cleaner.keys(`${prefix}*`);
    if (keys.length > 0) await cleaner.del(...keys);
  }
  cleaner.disconnect();
});

function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (condition()) resolve();
      else if (Date.now() - started > timeoutMs) reject(new Error('timed out waiting'));
      else setTimeout(check, 25);
    };
    check();
  });
}

describe.skipIf(!sharedAvailable)('shared mode (REDIS_URL)', () => {
  const url = REDIS_URL ?? '';

  it('a second instance gets the first instance’s answer from Redis', async () => {
    const keyPrefix = uniquePrefix();
    const a = makeService({ redis: client(url), keyPrefix }, new FakeErp('cred-shared'));
    const b = makeService({ redis: client(url), keyPrefix }, new FakeErp('cred-shared'));
    await waitFor(() => clients.every((c) => c.status === 'ready'), 3_000);

    const first = await a.service.getItem({ code: 'CODE-7' });
    // The write to Redis is not awaited: wait for the cached answer to be there.
    const probe = client(url);
    await vi.waitFor(async () =>
      expect(await probe.keys(`${keyPrefix}cache:*`)).not.toHaveLength(0),
    );
    const second = await b.service.getItem({ code: 'CODE-7' });
    expect(a.erp.count()).toBe(1);
    expect(b.erp.count()).toBe(0);
    expect(second.freshness).toEqual({ ...first.freshness, fromCache: true });
    expect(second.data).toEqual(first.data);

    // Another credential (another tenant) never sees those answers.
    const other = makeService({ redis: client(url), keyPrefix }, new FakeErp('cred-other'));
    await waitFor(() => clients.every((c) => c.status === 'ready'), 3_000);
    await other.service.getItem({ code: 'CODE-7' });
    expect(other.erp.count()).toBe(1);
    await Promise.all([a.service.close(), b.service.close(), other.service.close()]);
  });

  it('an answer by id from Redis is held under its code too (App Home peeks by code)', async () => {
    const keyPrefix = uniquePrefix();
    const a = makeService({ redis: client(url), keyPrefix }, new FakeErp('cred-alias'));
    const b = makeService({ redis: client(url), keyPrefix }, new FakeErp('cred-alias'));
    await waitFor(() => clients.every((c) => c.status === 'ready'), 3_000);
    await a.service.getItem({ id: 8 });
    const probe = client(url);
    await vi.waitFor(async () => expect(await probe.keys(`${keyPrefix}cache:*`)).toHaveLength(2));
    await b.service.getItem({ id: 8 });
    expect(b.erp.count()).toBe(0);
    expect(b.service.peekItem?.({ code: 'CODE-8' })?.data.id).toBe(8);
    await Promise.all([a.service.close(), b.service.close()]);
  });

  it('two instances together stay inside one budget', async () => {
    const keyPrefix = uniquePrefix();
    const limits = { getPerMinute: 4, searchPerMinute: 2, windowMs: 500 };
    const a = makeService(
      { redis: client(url), keyPrefix, limits, queueMaxWaitMs: 10_000 },
      new FakeErp('cred-budget'),
    );
    const b = makeService(
      { redis: client(url), keyPrefix, limits, queueMaxWaitMs: 10_000 },
      new FakeErp('cred-budget'),
    );
    await waitFor(() => clients.every((c) => c.status === 'ready'), 3_000);
    a.erp.latencyMs = 5;
    b.erp.latencyMs = 5;

    const lookups = [
      ...Array.from({ length: 8 }, (_, i) => a.service.getItem({ id: i + 1 })),
      ...Array.from({ length: 8 }, (_, i) => b.service.getItem({ id: i + 101 })),
    ];
    await Promise.all(lookups);
    const times = [...a.erp.calls, ...b.erp.calls].map((call) => call.at);
    expect(times).toHaveLength(16);
    expect(maxInWindow(times, 500)).toBeLessThanOrEqual(4);
    await Promise.all([a.service.close(), b.service.close()]);
  });

  it('one user’s burst spread over two instances stops at its share; another user goes at once', async () => {
    const keyPrefix = uniquePrefix();
    // 6 a window, a sixth kept back: one user may hold 5.
    const limits = { getPerMinute: 6, searchPerMinute: 2, windowMs: 1_500 };
    const make = () =>
      makeService(
        { redis: client(url), keyPrefix, limits, queueMaxWaitMs: 10_000 },
        new FakeErp('cred-share'),
      );
    const a = make();
    const b = make();
    await waitFor(() => clients.every((c) => c.status === 'ready'), 3_000);
    const burst = [
      ...Array.from({ length: 4 }, (_, i) => a.service.getItem({ id: i + 1 }, { requester: 'UA' })),
      ...Array.from({ length: 4 }, (_, i) =>
        b.service.getItem({ id: i + 11 }, { requester: 'UA' }),
      ),
    ];
    await waitFor(() => a.erp.count() + b.erp.count() >= 5, 3_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(a.erp.count() + b.erp.count()).toBe(5);
    // UB goes at once: its answer comes while UA's other three still wait for the window to
    // turn (after it, all four would have gone).
    await b.service.getItem({ id: 99 }, { requester: 'UB' });
    expect(a.erp.count() + b.erp.count()).toBe(6);
    await Promise.all(burst);
    expect(a.erp.count() + b.erp.count()).toBe(9);
    await Promise.all([a.service.close(), b.service.close()]);
  });

  it('two greedy requesters on two instances leave a third a slot (the graded reserve)', async () => {
    const keyPrefix = uniquePrefix();
    // 12 a window, 2 kept back: one requester alone may hold 10, a second then takes 1.
    const limits = { getPerMinute: 12, searchPerMinute: 2, windowMs: 3_000 };
    const make = () =>
      makeService(
        { redis: client(url), keyPrefix, limits, queueMaxWaitMs: 20_000 },
        new FakeErp('cred-graded'),
      );
    const a = make();
    const b = make();
    await waitFor(() => clients.every((c) => c.status === 'ready'), 3_000);
    const sent = () => [...a.erp.calls, ...b.erp.calls];
    const greedy = [
      ...Array.from({ length: 12 }, (_, i) =>
        a.service.getItem({ id: i + 1 }, { requester: 'UA' }),
      ),
    ];
    await waitFor(() => sent().length >= 10, 3_000);
    greedy.push(
      ...Array.from({ length: 12 }, (_, i) =>
        b.service.getItem({ id: i + 101 }, { requester: 'workflow:lookup_stock' }),
      ),
    );
    await waitFor(() => sent().length >= 11, 3_000);
    // Settled: nothing more goes until the window turns.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent()).toHaveLength(11);
    await a.service.getItem({ id: 999 }, { requester: 'UC' });
    // The third requester's call went before any greedy call of the next window.
    expect(sent()).toHaveLength(12);
    expect(a.erp.calls.at(-1)?.args).toEqual({ id: 999 });
    await Promise.all(greedy);
    await Promise.all([a.service.close(), b.service.close()]);
  });
});

describe.skipIf(!sharedAvailable)('RedisLedger.waitMs (REDIS_URL)', () => {
  it('counts other replicas’ slots once Redis has refused, and reads its clock after', async () => {
    const redis = client(REDIS_URL ?? '');
    const health = new RedisHealth(redis, silentLogger);
    // Each read of the clock is a millisecond later, as on a busy machine.
    let t = 1_000_000;
    const now = () => {
      t += 1;
      return t;
    };
    const key = `${uniquePrefix()}budget`;
    const replica = () =>
      new RedisLedger({
        redis,
        health,
        key,
        limit: 3,
        share: 3,
        windowMs: WINDOW_MS,
        flightBoundMs: 2 * WINDOW_MS,
        now,
      });
    const [a, b] = [replica(), replica()];
    try {
      await waitFor(() => redis.status === 'ready', 3_000);
      for (let i = 0; i < 3; i += 1) expect((await a.tryAcquire(`U${i}`)).granted).toBe(true);
      // B has taken nothing itself: by its own count every slot is free, and stays no wait
      // however the clock moves while it counts.
      expect([0, 1, 2].map((ahead) => b.waitMs(ahead))).toEqual([0, 0, 0]);
      expect(await b.tryAcquire('U9')).toMatchObject({ granted: false, refusal: 'budget' });
      // Redis's answer carried A's three calls: B now waits about a window for the first.
      const wait = b.waitMs(0);
      expect(wait).toBeGreaterThan(WINDOW_MS / 2);
      expect(wait).toBeLessThanOrEqual(WINDOW_MS + b.local.estimatedLatencyMs());
      expect(b.shareWaitMs('U9', 0)).toBe(0);
    } finally {
      health.dispose();
    }
  });
});

describe.skipIf(!redisServerInstalled)('Redis stopped mid-test', () => {
  it('keeps answering on memory, logs once, and returns to Redis after a restart', async () => {
    const port = await freePort();
    let server = await startRedisServer(port);
    const { logger, lines } = collectingLogger('info', 'lookup redis');
    const url = `redis://127.0.0.1:${port}`;
    const redis = client(url);
    const keyPrefix = 'outage:';
    const { erp, service } = makeService({
      redis,
      keyPrefix,
      logger,
      limits: { getPerMinute: 5, searchPerMinute: 2, windowMs: 1_000 },
    });
    try {
      await waitFor(() => redis.status === 'ready', 3_000);
      await service.getItem({ code: 'CODE-1' });
      const inspector = new Redis(url);
      await waitFor(() => inspector.status === 'ready', 3_000);
      expect(await inspector.keys('outage:cache:*')).not.toHaveLength(0);
      inspector.disconnect();

      await stopRedisServer(server);
      await waitFor(() => redis.status !== 'ready', 3_000);
      // Cached answers and new lookups both still work, on memory cache and memory budget.
      await expect(service.getItem({ code: 'CODE-1' })).resolves.toMatchObject({
        freshness: { fromCache: true },
      });
      for (let id = 2; id <= 4; id += 1) {
        await expect(service.getItem({ code: `CODE-${id}` })).resolves.toMatchObject({
          data: { id },
        });
      }
      expect(erp.count()).toBe(4);
      const warnings = lines.filter((line) => line.includes('Redis unreachable'));
      expect(warnings).toHaveLength(1);

      server = await startRedisServer(port);
      await waitFor(() => redis.status === 'ready', 8_000);
      await service.getItem({ code: 'CODE-5' });
      const after = new Redis(url);
      await waitFor(() => after.status === 'ready', 3_000);
      // The write to Redis is not awaited: wait for the cached answer to be there.
      await vi.waitFor(async () => expect(await after.keys('outage:cache:*')).not.toHaveLength(0));
      expect(await after.keys('outage:budget:*')).not.toHaveLength(0);
      after.disconnect();
      expect(lines.filter((line) => line.includes('Redis is back'))).toHaveLength(1);
      expect(lines.filter((line) => line.includes('Redis unreachable'))).toHaveLength(1);
    } finally {
      await service.close();
      redis.disconnect();
      await stopRedisServer(server);
    }
  });
});
