/**
 * The share record and the repeat window (src/slack/shares.ts): in memory, and shared by
 * replicas through Redis when REDIS_URL answers; the recorded confirmation URL is sent to only
 * where a payload's response_url may go.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CONFIRM_URL_TTL_MS,
  createShares,
  REPEAT_WINDOW_MS,
  type ShareRecord,
} from '../../src/slack/shares.js';
import { collectingLogger } from '../helpers/logSink.js';
import { sharedRedisOrSkip } from '../helpers/redis.js';

const RECORD: ShareRecord = {
  sharer: 'U0SHARER1',
  team: 'T0HOME',
  channel: 'C0SHARED',
  ts: '1760000000.000200',
};
const API_URL = 'https://slack.com/api/';

function memory(now?: () => number) {
  const { logger } = collectingLogger('info');
  return createShares({ logger, apiUrl: API_URL, ...(now ? { now } : {}) });
}

describe('shares in memory', () => {
  it('keeps a record by id, and forgets it', async () => {
    const shares = memory();
    const id = shares.newId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(shares.newId()).not.toBe(id);
    await shares.save(id, RECORD);
    expect(await shares.find(id)).toEqual(RECORD);
    await shares.forget(id);
    expect(await shares.find(id)).toBeUndefined();
  });

  it('claims a press once within the window, again after it or once released', async () => {
    // Not 0: lru-cache reads a start time of 0 as "no time recorded".
    let clock = 1_000;
    const shares = memory(() => clock);
    const press = ['card', 'U0SHARER1', 'C0SHARED', '1.000001', 'stock_share', '{}'];
    expect(await shares.firstPress(press)).toBe(true);
    expect(await shares.firstPress(press)).toBe(false);
    expect(await shares.firstPress([...press.slice(0, 5), '{"other":1}'])).toBe(true);
    clock += REPEAT_WINDOW_MS + 1;
    expect(await shares.firstPress(press)).toBe(true);
    await shares.release(press);
    expect(await shares.firstPress(press)).toBe(true);
  });

  it('drops the confirmation URL after Slack’s 30 minutes, and keeps the record', async () => {
    let clock = 1_000;
    const shares = memory(() => clock);
    const id = shares.newId();
    const confirmUrl = 'https://hooks.slack.com/actions/T1/2/x';
    await shares.save(id, { ...RECORD, confirmUrl });
    expect(await shares.find(id)).toEqual({ ...RECORD, confirmUrl });
    clock += CONFIRM_URL_TTL_MS + 1;
    expect(await shares.find(id)).toEqual(RECORD);
  });

  it('sends the confirmation only to a response_url on Slack’s hooks', async () => {
    const sent: string[] = [];
    const { logger } = collectingLogger('info');
    const shares = createShares({
      logger,
      apiUrl: API_URL,
      fetch: async (input) => {
        sent.push(String(input));
        return new Response(null, { status: 200 });
      },
    });
    const message = { text: 'Removed', blocks: [] };
    expect(await shares.replaceAt('https://hooks.slack.com/actions/T1/2/x', message)).toBe(true);
    expect(await shares.replaceAt('http://169.254.169.254/latest/meta-data', message)).toBe(false);
    expect(await shares.replaceAt('https://slack.com/api/chat.postMessage', message)).toBe(false);
    expect(sent).toEqual(['https://hooks.slack.com/actions/T1/2/x']);
  });

  it('an expired confirmation URL is a quiet false, not an error', async () => {
    const { logger } = collectingLogger('info');
    const shares = createShares({
      logger,
      apiUrl: API_URL,
      fetch: async () => new Response('expired_url', { status: 404 }),
    });
    await expect(
      shares.replaceAt('https://hooks.slack.com/actions/T1/2/x', { text: 'x', blocks: [] }),
    ).resolves.toBe(false);
  });
});

/** A Redis that can stop answering: enough of get/set (NX) and del for the share store. */
function flakyRedis() {
  const data = new Map<string, string>();
  const state = { down: false };
  const check = () => {
    if (state.down) throw Object.assign(new Error('Connection is closed.'), { name: 'Error' });
  };
  const fake = {
    async get(key: string) {
      check();
      return data.get(key) ?? null;
    },
    async set(key: string, value: string, ...options: unknown[]) {
      check();
      if (options.includes('NX') && data.has(key)) return null;
      data.set(key, value);
      return 'OK';
    },
    async del(...keys: string[]) {
      check();
      return keys.filter((key) => data.delete(key)).length;
    },
  };
  return { redis: fake as unknown as Redis, state };
}

describe('shares when Redis stops answering and comes back', () => {
  const replica = (redis: Redis) => {
    const { logger } = collectingLogger('info');
    return createShares({ logger, apiUrl: API_URL, redis });
  };

  it('a share saved while Redis was down can still be removed once it answers again', async () => {
    const { redis, state } = flakyRedis();
    const shares = replica(redis);
    const id = shares.newId();
    state.down = true;
    await shares.save(id, RECORD);
    state.down = false;
    expect(await shares.find(id)).toEqual(RECORD);
    await shares.forget(id);
    expect(await shares.find(id)).toBeUndefined();
  });

  it('a share Redis took and another replica removed is gone here too', async () => {
    const { redis } = flakyRedis();
    const [a, b] = [replica(redis), replica(redis)];
    const id = a.newId();
    await a.save(id, RECORD);
    await b.forget(id);
    expect(await a.find(id)).toBeUndefined();
  });

  it('a press another replica claimed and released is free here at once', async () => {
    const { redis } = flakyRedis();
    const [a, b] = [replica(redis), replica(redis)];
    const press = ['card', 'U0SHARER1', 'C0SHARED', '1.000001', 'stock_share', '{}'];
    expect(await a.firstPress(press)).toBe(true);
    expect(await b.firstPress(press)).toBe(false);
    // The first share failed: it let go of the claim.
    await a.release(press);
    expect(await b.firstPress(press)).toBe(true);
  });

  it('while Redis is down, this replica’s memory claims presses', async () => {
    const { redis, state } = flakyRedis();
    const shares = replica(redis);
    const press = ['search', 'U0SHARER1', 'V0MODAL', 'WIDGET-9', 'C0SHARED'];
    state.down = true;
    expect(await shares.firstPress(press)).toBe(true);
    expect(await shares.firstPress(press)).toBe(false);
    await shares.release(press);
    expect(await shares.firstPress(press)).toBe(true);
  });
});

const sharedAvailable = await sharedRedisOrSkip('the shared share-record tests');

describe.skipIf(!sharedAvailable)('shares through Redis (REDIS_URL): any replica answers', () => {
  const redis = new Redis(process.env.REDIS_URL ?? '');
  const keyPrefix = `test-shares-${randomUUID()}:`;
  const replica = () => {
    const { logger } = collectingLogger('info');
    return createShares({ logger, apiUrl: API_URL, redis, keyPrefix });
  };
  afterAll(async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('a share recorded on one replica is found, and forgotten, on another', async () => {
    const [a, b] = [replica(), replica()];
    const id = a.newId();
    await a.save(id, RECORD);
    expect(await b.find(id)).toEqual(RECORD);
    const ttl = await redis.pttl(`${keyPrefix}shares:record:${id}`);
    expect(ttl).toBeGreaterThan(0);
    await b.forget(id);
    // Redis is the truth while it answers: the replica that saved it has it no more.
    expect(await a.find(id)).toBeUndefined();
  });

  it('a press claimed on one replica is a repeat on another, with the window as its expiry', async () => {
    const [a, b] = [replica(), replica()];
    const press = ['search', 'U0SHARER1', 'V0MODAL', 'WIDGET-9', 'C0SHARED'];
    expect(await a.firstPress(press)).toBe(true);
    expect(await b.firstPress(press)).toBe(false);
    const keys = await redis.keys(`${keyPrefix}shares:press:*`);
    expect(keys).toHaveLength(1);
    // The key is a hash: no user id or value in clear in Redis.
    expect(keys[0]).not.toContain('U0SHARER1');
    const ttl = await redis.pttl(keys[0] ?? '');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(REPEAT_WINDOW_MS);
  });

  it('keeps the confirmation URL apart, with Slack’s 30 minutes as its expiry', async () => {
    const [a, b] = [replica(), replica()];
    const id = a.newId();
    const confirmUrl = 'https://hooks.slack.com/actions/T1/2/x';
    await a.save(id, { ...RECORD, confirmUrl });
    expect(await b.find(id)).toEqual({ ...RECORD, confirmUrl });
    expect(await redis.get(`${keyPrefix}shares:record:${id}`)).not.toContain('hooks.slack.com');
    const ttl = await redis.pttl(`${keyPrefix}shares:confirm:${id}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(CONFIRM_URL_TTL_MS);
    await redis.del(`${keyPrefix}shares:confirm:${id}`);
    expect(await b.find(id)).toEqual(RECORD);
  });

  it('a record in Redis that does not read as one is no record', async () => {
    const b = replica();
    await redis.set(`${keyPrefix}shares:record:forged`, JSON.stringify({ sharer: '<!here>' }));
    expect(await b.find('forged')).toBeUndefined();
  });
});
