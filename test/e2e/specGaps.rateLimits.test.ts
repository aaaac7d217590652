/**
 * End to end, the rate-limit rows of docs/erp-api.md's table "What the API description leaves open, and
 * how the app copes": a 429 with or without Retry-After, and one budget per credential
 * shared by every replica. The sandbox ERP enforces its limits and the app is driven through
 * Bolt's HTTP receiver like Slack would.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SANDBOX_SEED,
  type RunningSandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { freePort, type RunningApp, redisReady, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { redisServerInstalled, startRedisServer, stopRedisServer } from '../helpers/redis.js';
import { ask, hasButton, parsedLog } from './helpers/conversation.js';

// ─── Retry-timing headers on 429 ────────────────────────────────────────────────────────────

describe('a 429 from the ERP, with and without Retry-After', () => {
  let run: RunningApp;
  let codes: string[];

  beforeAll(async () => {
    // The ERP allows 1 getItem a second; the app believes it may make many, so only the
    // ERP's 429 can hold it back.
    run = await startApp({
      sandbox: {
        seed: DEFAULT_SANDBOX_SEED,
        limits: { getItem: 1, windowMs: 1000 },
        behaviour: { retryAfter: true },
      },
      env: { ERP_GET_LIMIT_PER_MINUTE: '1000', QUEUE_MAX_WAIT_SECONDS: '5' },
    });
    codes = run.sandbox.data.items.slice(100, 105).map((i) => i.record.code);
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('with Retry-After: waits as told, retries once, and the user gets the card', async () => {
    const [first, second] = codes;
    expect(textOf(await ask(run, '/stock', first ?? ''))).toContain(first);
    const answer = await ask(run, '/stock', second ?? '');
    expect(textOf(answer)).toContain(second);
    expect(hasButton(answer, 'Refresh')).toBe(true);
    // The ERP's own window is the clock: a retry before it turned would have drawn a second
    // 429. One 429 and then the card: the app waited as told, and retried once.
    expect(run.sandbox.stats().rateLimited).toBe(1);
    const paused = parsedLog(run).filter((line) => String(line.msg).startsWith('ERP answered 429'));
    expect(paused.map((line) => line.retryAfterMs)).toEqual([1000]);
  });

  it('without Retry-After: pauses the endpoint for the window, says "busy", and does not hammer the ERP', async () => {
    run.sandbox.setBehaviour({ retryAfter: false });
    run.sandbox.resetLimits();
    const [, , third, fourth, fifth] = codes;
    expect(textOf(await ask(run, '/stock', third ?? ''))).toContain(third);
    const limitedBefore = run.sandbox.stats().rateLimited;

    const busy = textOf(await ask(run, '/stock', fourth ?? ''));
    expect(busy).toMatch(/Lots of lookups right now; try again in about/);
    expect(run.sandbox.stats().rateLimited).toBe(limitedBefore + 1);
    const paused = parsedLog(run).filter((line) => String(line.msg).startsWith('ERP answered 429'));
    // Until the oldest call the ledger holds leaves the app's one-minute window (not a fixed
    // minute from now): longer than QUEUE_MAX_WAIT_SECONDS here, so "busy".
    const waitMs = Number(paused.at(-1)?.waitMs);
    expect(waitMs).toBeGreaterThan(5_000);
    expect(waitMs).toBeLessThanOrEqual(60_000);

    // The pause holds for everyone: no further getItem reaches the ERP...
    const calls = run.sandbox.stats().requests.getItem ?? 0;
    expect(textOf(await ask(run, '/stock', fifth ?? ''))).toMatch(/Lots of lookups/);
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(calls);
    expect(run.sandbox.stats().rateLimited).toBe(limitedBefore + 1);
    // ...while what is cached is still answered.
    expect(textOf(await ask(run, '/stock', third ?? ''))).toContain('from cache');
  });
});

// ─── Rate-limit identity: one budget per credential, across replicas ────────────────────────

describe.skipIf(!redisServerInstalled)('one budget per credential, shared by two replicas', () => {
  let redis: ChildProcess | undefined;
  let erp: RunningSandbox;
  let replicas: RunningApp[] = [];

  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedisServer(port);
    const url = `redis://127.0.0.1:${port}`;
    // The ERP's real limit per minute, and the app told the same: together, not each.
    erp = await startSandbox({ seed: DEFAULT_SANDBOX_SEED, limits: { getItem: 3 } });
    const env = { REDIS_URL: url, ERP_GET_LIMIT_PER_MINUTE: '3', QUEUE_MAX_WAIT_SECONDS: '1' };
    replicas = [await startApp({ erp, env }), await startApp({ erp, env })];
    await redisReady(...replicas);
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await erp?.close();
    await stopRedisServer(redis);
  });

  it('the fourth lookup across both replicas waits or is "busy", and the ERP never answers 429', async () => {
    const [a, b] = replicas;
    if (!a || !b) throw new Error('replicas did not start');
    const codes = erp.data.items.slice(200, 204).map((i) => i.record.code);
    const answers = [];
    for (const [replica, code] of [
      [a, codes[0]],
      [b, codes[1]],
      [a, codes[2]],
      [b, codes[3]],
    ] as const) {
      answers.push(textOf(await ask(replica, '/stock', code ?? '')));
    }
    for (let i = 0; i < 3; i += 1) expect(answers[i]).toContain(codes[i]);
    expect(answers[3]).toMatch(/Lots of lookups right now/);
    expect(erp.stats().requests.getItem).toBe(3);
    expect(erp.stats().rateLimited).toBe(0);
  });
});
