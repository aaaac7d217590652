/**
 * The once-gate (src/ops/onceGate.ts): in memory, through a Redis that does not answer, and
 * shared by replicas through the Redis at REDIS_URL; and the Redis keys its two callers claim
 * under, which replicas of different versions must agree on.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onceGate } from '../../src/ops/onceGate.js';
import { createShares, REPEAT_WINDOW_MS } from '../../src/slack/shares.js';
import { messageGate, messageKey } from '../../src/slack/words/once.js';
import { eventually } from '../helpers/eventually.js';
import { collectingLogger } from '../helpers/logSink.js';
import { sharedRedisOrSkip } from '../helpers/redis.js';

describe('a once-gate in memory', () => {
  beforeEach(() => {
    // Not 0: lru-cache reads a start time of 0 as "no time recorded".
    vi.useFakeTimers({ now: 1_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const gate = (ttlMs: number) => onceGate({ ttlMs, now: () => Date.now() });

  it('passes the first claim of a key, not a second, and each key apart', async () => {
    const once = gate(60_000);
    expect(await once.claim('a')).toBe(true);
    expect(await once.claim('a')).toBe(false);
    expect(await once.claim('b')).toBe(true);
  });

  it('passes a claim again once the key is released', async () => {
    const once = gate(60_000);
    expect(await once.claim('a')).toBe(true);
    await once.release('a');
    expect(await once.claim('a')).toBe(true);
    expect(await once.claim('a')).toBe(false);
  });

  it('holds a claim for its lifetime, and passes one again after it', async () => {
    const once = gate(60_000);
    expect(await once.claim('a')).toBe(true);
    vi.advanceTimersByTime(59_999);
    expect(await once.claim('a')).toBe(false);
    vi.advanceTimersByTime(2);
    expect(await once.claim('a')).toBe(true);
  });
});

/** A client whose every command fails at once: nothing listens, and it never connects. */
function silentRedis(): Redis {
  const redis = new Redis({
    port: 1,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  return redis;
}

describe('a once-gate whose Redis does not answer', () => {
  const redis = silentRedis();
  afterAll(() => redis.disconnect());

  it('lets this replica’s memory decide, and says so for each claim and release', async () => {
    const told: string[] = [];
    const once = onceGate({
      ttlMs: 60_000,
      redis,
      onRedisError: (_, doing) => told.push(doing),
    });
    expect(await once.claim('a')).toBe(true);
    expect(await once.claim('a')).toBe(false);
    await once.release('a');
    expect(await once.claim('a')).toBe(true);
    expect(told).toEqual(['claim', 'claim', 'release', 'claim']);
  });

  it('memory first: a key memory has not seen passes, one it has does not', async () => {
    const told: string[] = [];
    const once = onceGate({
      ttlMs: 60_000,
      redis,
      memoryFirst: true,
      onRedisError: (_, doing) => told.push(doing),
    });
    expect(await once.claim('a')).toBe(true);
    // Memory answers: Redis is not asked again.
    expect(await once.claim('a')).toBe(false);
    expect(told).toEqual(['claim']);
  });
});

const sharedAvailable = await sharedRedisOrSkip('the shared once-gate tests');

describe.skipIf(!sharedAvailable)('a once-gate through Redis (REDIS_URL)', () => {
  const redis = new Redis(process.env.REDIS_URL ?? '');
  const keyPrefix = `test-once-${randomUUID()}:`;
  afterAll(async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });
  const replica = (ttlMs: number, memoryFirst = false) =>
    onceGate({ ttlMs, redis, keyPrefix, memoryFirst });

  it('passes the first claim on any replica, not a second on another', async () => {
    const [a, b] = [replica(60_000), replica(60_000)];
    const key = randomUUID();
    expect(await a.claim(key)).toBe(true);
    expect(await b.claim(key)).toBe(false);
    expect(await a.claim(key)).toBe(false);
    const ttl = await redis.pttl(`${keyPrefix}${key}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('passes a claim again on any replica once one released it', async () => {
    const [a, b] = [replica(60_000), replica(60_000)];
    const key = randomUUID();
    expect(await a.claim(key)).toBe(true);
    await a.release(key);
    expect(await b.claim(key)).toBe(true);
    expect(await a.claim(key)).toBe(false);
  });

  it('memory first: a key another replica claimed is refused, and stays refused here', async () => {
    const [a, b] = [replica(60_000, true), replica(60_000, true)];
    const key = randomUUID();
    expect(await a.claim(key)).toBe(true);
    expect(await b.claim(key)).toBe(false);
    await a.release(key);
    // b's own memory remembers its refused claim until the lifetime ends.
    expect(await b.claim(key)).toBe(false);
    expect(await a.claim(key)).toBe(true);
  });

  it('passes a claim again once its lifetime in Redis ended', async () => {
    const ttlMs = 50;
    const [a, b] = [replica(ttlMs), replica(ttlMs, true)];
    const [key, other] = [randomUUID(), randomUUID()];
    expect(await a.claim(key)).toBe(true);
    expect(await b.claim(other)).toBe(true);
    await eventually(async () => expect(await a.claim(key)).toBe(true));
    await eventually(async () => expect(await b.claim(other)).toBe(true));
  });

  it('keeps the Redis keys and lifetimes the words and shares claimed under before it', async () => {
    const prefix = `${keyPrefix}callers:`;
    const key = messageKey('C0CHAN01', '1760000000.000100');
    expect(await messageGate({ redis, keyPrefix: prefix }).claim(key)).toBe(true);
    const messageTtl = await redis.pttl(`${prefix}words:once:C0CHAN01:1760000000.000100`);
    expect(messageTtl).toBeGreaterThan(REPEAT_WINDOW_MS);
    expect(messageTtl).toBeLessThanOrEqual(10 * 60_000);

    const { logger } = collectingLogger('info');
    const shares = createShares({
      logger,
      apiUrl: 'https://slack.com/api/',
      redis,
      keyPrefix: prefix,
    });
    const press = ['card', 'U0SHARER1', 'C0SHARED', '1.000001', 'stock_share', '{}'];
    expect(await shares.firstPress(press)).toBe(true);
    const hash = createHash('sha256').update(JSON.stringify(press)).digest('base64url');
    expect(await redis.keys(`${prefix}shares:press:*`)).toEqual([`${prefix}shares:press:${hash}`]);
    const pressTtl = await redis.pttl(`${prefix}shares:press:${hash}`);
    expect(pressTtl).toBeGreaterThan(0);
    expect(pressTtl).toBeLessThanOrEqual(REPEAT_WINDOW_MS);
  });
});
