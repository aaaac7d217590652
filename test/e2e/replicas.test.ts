/**
 * Two replicas of the app on one ERP credential and one Redis (REDIS_URL): a lookup made by
 * one is a cache hit on the other, and the health endpoint reports Redis.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { type RunningApp, redisReady, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { sharedRedisOrSkip } from '../helpers/redis.js';

const redisUrl = process.env.REDIS_URL;
const available = await sharedRedisOrSkip('the replica tests');

describe.skipIf(!available)('two replicas sharing Redis', () => {
  let erp: RunningSandbox;
  let replicas: RunningApp[] = [];

  beforeAll(async () => {
    erp = await startSandbox();
    const env = { REDIS_URL: redisUrl ?? '' };
    replicas = [await startApp({ erp, env }), await startApp({ erp, env })];
    await redisReady(...replicas);
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await erp?.close();
  });

  it('answers a lookup made by one replica from the shared cache on the other', async () => {
    const ask = async (replica: RunningApp) => {
      const { ack } = await replica.command('/stock', 'WIDGET-9');
      return textOf(ack ?? {});
    };
    const [first, second] = replicas;
    if (!first || !second) throw new Error('replicas did not start');
    expect(await ask(first)).toContain('WIDGET-9');
    expect(erp.stats().requests.getItem).toBe(1);
    const fromOther = await ask(second);
    expect(fromOther).toContain('WIDGET-9');
    expect(fromOther).toMatch(/cache/i);
    expect(erp.stats().requests.getItem).toBe(1);
  });

  it('reports Redis in /healthz', async () => {
    const health = await request(`${replicas[0]?.baseUrl}/healthz`);
    expect(await health.body.json()).toMatchObject({ status: 'ok', redis: 'ready' });
  });
});
