/**
 * A background requester (the crawl, watches) on a lane: its own share of the window, no
 * slot while a user waits, never the last free slot, and its calls under the lane's policies.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createUpstream } from '../../src/lookup/lanes.js';
import { createMetrics } from '../../src/lookup/metrics.js';
import { silentLogger } from './fakes.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

function upstream(getPerMinute: number) {
  return createUpstream({
    credentialKey: 'test',
    limits: { getPerMinute, searchPerMinute: 2, windowMs: 1_000 },
    fairShareReserve: 0,
    queueMaxWaitMs: 10_000,
    metrics: createMetrics(),
    logger: silentLogger,
    now: Date.now,
  });
}

describe('lanes.background', () => {
  it('takes at most its share of the window', async () => {
    const up = upstream(10);
    const watch = up.background('getItem', 'watch', 0.3);
    expect(watch.slots).toBe(3);
    const slots = [await watch.tryAcquire(), await watch.tryAcquire(), await watch.tryAcquire()];
    expect(slots.every(Boolean)).toBe(true);
    expect(await watch.tryAcquire()).toBeUndefined();
    expect(watch.waitMs()).toBeGreaterThan(0);
    up.close();
  });

  it('never takes the last free slot, and none while a user waits', async () => {
    const up = upstream(2);
    const watch = up.background('getItem', 'watch', 1);
    const { ledger, queue } = up.lanes.getItem;
    const user = await queue.acquire('U1');
    // One slot left: it stays for users.
    expect(await watch.tryAcquire()).toBeUndefined();
    const second = await queue.acquire('U2');
    const waiting = queue.acquire('U3');
    ledger.cancel(user);
    ledger.cancel(second);
    // A user is queued (until the queue's next turn): the background holds back.
    expect(watch.usersWaiting()).toBe(true);
    expect(await watch.tryAcquire()).toBeUndefined();
    queue.kick();
    ledger.cancel(await waiting);
    expect(watch.usersWaiting()).toBe(false);
    expect(await watch.tryAcquire()).toBeDefined();
    up.close();
  });

  it('runs a call once a slot is free, and is off with no share', async () => {
    const up = upstream(4);
    const watch = up.background('getItem', 'watch', 0.25);
    const first = await watch.run(async () => 'first');
    expect(first).toBe('first');
    // Its one slot is held for the window: the next run waits for it to turn.
    const second = watch.run(async () => Date.now());
    await vi.advanceTimersByTimeAsync(1_500);
    await expect(second).resolves.toBeGreaterThanOrEqual(1_000);
    expect(up.background('getItem', 'off', 0).waitMs()).toBe(Number.POSITIVE_INFINITY);
    up.close();
  });
});
