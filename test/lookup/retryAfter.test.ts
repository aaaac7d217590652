/**
 * A 429's Retry-After is obeyed up to five minutes and no further: a gateway that answers
 * `Retry-After: 999999999` must not stop lookups for years, in this process or (through the
 * Redis pause every replica reads) across replicas and restarts.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_RETRY_AFTER_MS, RateLimitedError } from '../../src/erp/errors.js';
import { errorForStatus } from '../../src/erp/schemas.js';
import { MemoryLedger } from '../../src/lookup/ledger.js';
import { RedisHealth } from '../../src/lookup/redis.js';
import { RedisLedger } from '../../src/lookup/redisLedger.js';
import { collectingLogger } from '../helpers/logSink.js';
import { sharedRedisOrSkip } from '../helpers/redis.js';
import { makeService, silentLogger } from './fakes.js';

const HUGE = '999999999';

describe('Retry-After from the ERP', () => {
  it('is read as asked and clamped to five minutes', () => {
    const error = errorForStatus({
      endpoint: 'getItem',
      statusCode: 429,
      headers: { 'retry-after': HUGE },
      snippet: undefined,
      nowMs: 0,
    });
    expect(error).toBeInstanceOf(RateLimitedError);
    const limited = error as RateLimitedError;
    expect(limited.retryAfterMs).toBe(MAX_RETRY_AFTER_MS);
    expect(limited.askedRetryAfterMs).toBe(Number(HUGE) * 1000);
    expect(limited.clamped).toBe(true);
  });

  it('keeps a pause within the bound as asked', () => {
    const limited = new RateLimitedError('429', {
      endpoint: 'getItem',
      statusCode: 429,
      retryAfterMs: 90_000,
    });
    expect(limited.retryAfterMs).toBe(90_000);
    expect(limited.clamped).toBe(false);
  });
});

describe('a huge Retry-After through the lookup service', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pauses five minutes, says so in the log, and then looks up again', async () => {
    const { logger, parsed } = collectingLogger('info');
    const { erp, service } = makeService({
      limits: { getPerMinute: 10, searchPerMinute: 2, windowMs: 1_000 },
      queueMaxWaitMs: 1_000,
      retry: { rateLimitedRetries: 0 },
      logger,
    });
    erp.failWith(
      'getItem',
      new RateLimitedError('Too many requests', {
        endpoint: 'getItem',
        statusCode: 429,
        retryAfterMs: Number(HUGE) * 1000,
      }),
    );
    await expect(service.getItem({ id: 1 })).rejects.toBeInstanceOf(RateLimitedError);
    const clamped = parsed.find((line) => String(line.msg).includes('longer pause'));
    expect(clamped).toMatchObject({ endpoint: 'getItem', waitMs: MAX_RETRY_AFTER_MS });
    // Still paused just before the five minutes are up…
    expect(service.expectedWaitMs('getItem')).toBeGreaterThan(0);
    await vi.advanceTimersByTimeAsync(MAX_RETRY_AFTER_MS - 1_000);
    expect(service.expectedWaitMs('getItem')).toBeGreaterThan(0);
    // …and free after them.
    await vi.advanceTimersByTimeAsync(1_001);
    expect(service.expectedWaitMs('getItem')).toBe(0);
    await expect(service.getItem({ id: 2 })).resolves.toMatchObject({ data: { id: 2 } });
    await service.close();
  });

  it('the memory ledger never pauses longer, whoever asks', () => {
    let now = 0;
    const ledger = new MemoryLedger(5, 1_000, () => now);
    ledger.block(Number.MAX_SAFE_INTEGER);
    now = MAX_RETRY_AFTER_MS;
    expect(ledger.tryAcquire('U1').granted).toBe(true);
  });
});

const REDIS_URL = process.env.REDIS_URL;
const sharedAvailable = await sharedRedisOrSkip('the Redis pause tests');

describe.skipIf(!sharedAvailable)('the pause in Redis (REDIS_URL)', () => {
  const prefix = `test:${randomUUID()}:`;
  const redis = new Redis(REDIS_URL ?? '');
  const health = new RedisHealth(redis, silentLogger);
  const ledger = (key: string) =>
    new RedisLedger({
      redis,
      health,
      key: `${prefix}${key}`,
      limit: 5,
      share: 5,
      windowMs: 1_000,
      flightBoundMs: 5_000,
      now: Date.now,
    });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    health.dispose();
    redis.disconnect();
  });

  it('cuts a years-long pause left by an older version to five minutes', async () => {
    await redis.set(`${prefix}old:blocked`, '1', 'PX', Number(HUGE) * 1000);
    const refused = await ledger('old').tryAcquire('U1');
    expect(refused).toMatchObject({ granted: false, refusal: 'budget' });
    const left = await redis.pttl(`${prefix}old:blocked`);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
  });

  it('never lets a shorter pause from another replica cut a longer one short', async () => {
    const a = ledger('pause');
    const b = ledger('pause');
    a.block(120_000);
    await vi.waitFor(async () =>
      expect(await redis.pttl(`${prefix}pause:blocked`)).toBeGreaterThan(60_000),
    );
    b.block(1_000);
    // Any command after b's block runs after it on the one connection.
    await redis.ping();
    expect(await redis.pttl(`${prefix}pause:blocked`)).toBeGreaterThan(60_000);
    a.block(Number(HUGE) * 1000);
    await vi.waitFor(async () =>
      expect(await redis.pttl(`${prefix}pause:blocked`)).toBeGreaterThan(120_000),
    );
    expect(await redis.pttl(`${prefix}pause:blocked`)).toBeLessThanOrEqual(MAX_RETRY_AFTER_MS);
  });
});
