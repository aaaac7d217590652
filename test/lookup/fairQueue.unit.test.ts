import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimitedError } from '../../src/erp/errors.js';
import { BudgetQueue } from '../../src/lookup/fairQueue.js';
import { MemoryLedger } from '../../src/lookup/ledger.js';
import { createMetrics } from '../../src/lookup/metrics.js';
import { BusyError } from '../../src/lookup/types.js';
import { counterValue, makeService, maxInWindow } from './fakes.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const tight = (getPerMinute: number, windowMs = 1000) => ({
  limits: { getPerMinute, searchPerMinute: 2, windowMs },
});

describe('rate budget', () => {
  it('queues calls beyond the limit and never exceeds it in any window', async () => {
    const { erp, service } = makeService({ ...tight(3), queueMaxWaitMs: 10_000 });
    erp.latencyMs = 30;
    const lookups = Array.from({ length: 10 }, (_, i) => service.getItem({ id: i + 1 }));
    await vi.advanceTimersByTimeAsync(10);
    expect(erp.count()).toBe(3);
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(Promise.all(lookups)).resolves.toHaveLength(10);
    expect(erp.count()).toBe(10);
    expect(
      maxInWindow(
        erp.calls.map((c) => c.at),
        1000,
      ),
    ).toBeLessThanOrEqual(3);
    // A slot is reused only a full window after its response (the ERP saw the request
    // somewhere between sending and answering).
    expect(erp.calls[3]?.at).toBeGreaterThanOrEqual(1030);
  });

  it('is fair: a burst of 50 from one user does not starve another user', async () => {
    const { erp, service } = makeService({ ...tight(10), queueMaxWaitMs: 60_000 });
    const burst = Array.from({ length: 50 }, (_, i) =>
      service.getItem({ id: i + 1 }, { requester: 'UALICE' }),
    );
    await vi.advanceTimersByTimeAsync(0);
    const bob = service.getItem({ id: 999 }, { requester: 'UBOB' });
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all([...burst, bob]);
    const bobIndex = erp.calls.findIndex((call) => (call.args as { id?: number }).id === 999);
    // Alice's share (the limit minus a sixth, rounded down: 9) went at once; Bob takes the
    // reserved slot at once, not after 40 more.
    expect(bobIndex).toBe(9);
    expect(erp.calls[bobIndex]?.at).toBe(0);
  });

  it('alternates between requesters that both have a backlog', async () => {
    const { erp, service } = makeService({ ...tight(1), queueMaxWaitMs: 60_000 });
    const a = Array.from({ length: 4 }, (_, i) =>
      service.getItem({ id: i + 1 }, { requester: 'UA' }),
    );
    const b = Array.from({ length: 4 }, (_, i) =>
      service.getItem({ id: i + 101 }, { requester: 'UB' }),
    );
    await vi.advanceTimersByTimeAsync(20_000);
    await Promise.all([...a, ...b]);
    const owners = erp.calls.map((call) => ((call.args as { id: number }).id > 100 ? 'B' : 'A'));
    // A's first call goes at once; its second was queued before B's first, so it goes first.
    // From then on, turn and turn about.
    expect(owners.join('')).toBe('AABABABB');
  });

  it('turns callers away at once when the expected wait exceeds queueMaxWaitMs', async () => {
    const { erp, service, metrics } = makeService({ ...tight(2), queueMaxWaitMs: 1_500 });
    const lookups = Array.from({ length: 10 }, (_, i) => service.getItem({ id: i + 1 }));
    const settled = Promise.allSettled(lookups);
    await vi.advanceTimersByTimeAsync(0);
    const early = await Promise.race([
      Promise.allSettled(lookups.slice(4)),
      new Promise((resolve) => setTimeout(resolve, 1, 'pending')),
    ]);
    expect(early).not.toBe('pending');
    await vi.advanceTimersByTimeAsync(3_000);
    const results = await settled;
    const busy = results.filter((r) => r.status === 'rejected');
    expect(busy).toHaveLength(6);
    for (const result of busy) {
      const reason = (result as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(BusyError);
      expect((reason as BusyError).expectedWaitMs).toBeGreaterThan(1_500);
      expect((reason as BusyError).endpoint).toBe('getItem');
    }
    expect(erp.count()).toBe(4);
    expect(await counterValue(metrics, 'lookup_busy_total', { endpoint: 'getItem' })).toBe(6);
  });

  it('tells how long a new call would wait', async () => {
    const { service } = makeService(tight(2));
    expect(service.expectedWaitMs('getItem')).toBe(0);
    await service.getItem({ id: 1 });
    await service.getItem({ id: 2 });
    expect(service.expectedWaitMs('getItem')).toBe(1000);
    expect(service.expectedWaitMs('getContact')).toBe(0);
    await vi.advanceTimersByTimeAsync(400);
    expect(service.expectedWaitMs('getItem')).toBe(600);
    await vi.advanceTimersByTimeAsync(600);
    expect(service.expectedWaitMs('getItem')).toBe(0);
  });

  it('a free slot is no wait even when the clock turns between reads', () => {
    // Each read of the clock is a millisecond later, as on a busy machine.
    let t = 0;
    const now = () => {
      t += 1;
      return t;
    };
    const queue = new BudgetQueue({
      endpoint: 'getItem',
      ledger: new MemoryLedger(2, 1000, now),
      maxWaitMs: 5_000,
      metrics: createMetrics(),
      now,
    });
    expect(queue.expectedWaitMs()).toBe(0);
    expect(queue.position('UALICE').waitMs).toBe(0);
  });

  it('keeps separate budgets for lookups and searches', async () => {
    const { erp, service } = makeService({
      limits: { getPerMinute: 1, searchPerMinute: 1, windowMs: 1000 },
    });
    await service.getItem({ id: 1 });
    await service.searchItems({ words: ['x'] }, 0);
    await service.getContact({ code: 'ACME01' });
    await service.searchContacts({ words: ['acme'] }, 0);
    expect(erp.calls.map((c) => c.at)).toEqual([0, 0, 0, 0]);
  });
});

describe('429 from the ERP anyway', () => {
  it('honours Retry-After, pauses the endpoint for everyone and retries', async () => {
    const { erp, service, metrics } = makeService(tight(10));
    erp.failWith(
      'getItem',
      new RateLimitedError('Too many requests', {
        endpoint: 'getItem',
        statusCode: 429,
        retryAfterMs: 3_000,
      }),
    );
    const first = service.getItem({ id: 1 });
    await vi.advanceTimersByTimeAsync(0);
    const other = service.getItem({ id: 2 });
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(first).resolves.toMatchObject({ data: { id: 1 } });
    await expect(other).resolves.toMatchObject({ data: { id: 2 } });
    expect(erp.calls.map((c) => c.at)).toEqual([0, expect.any(Number), expect.any(Number)]);
    expect(Math.min(...erp.calls.slice(1).map((c) => c.at))).toBeGreaterThanOrEqual(3_000);
    expect(await counterValue(metrics, 'erp_rate_limited_total', { endpoint: 'getItem' })).toBe(1);
  });

  it('without Retry-After waits until the window can have turned', async () => {
    const { erp, service } = makeService(tight(10, 2_000));
    erp.failWith(
      'getItem',
      new RateLimitedError('Too many requests', { endpoint: 'getItem', statusCode: 429 }),
    );
    const lookup = service.getItem({ id: 1 });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(erp.count()).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    await expect(lookup).resolves.toMatchObject({ data: { id: 1 } });
    expect(erp.calls[1]?.at).toBeGreaterThanOrEqual(2_000);
  });

  it('gives up when the ERP asks for a wait beyond the bound', async () => {
    const { erp, service } = makeService({ ...tight(10), queueMaxWaitMs: 5_000 });
    erp.failWith(
      'getItem',
      new RateLimitedError('Too many requests', {
        endpoint: 'getItem',
        statusCode: 429,
        retryAfterMs: 60_000,
      }),
    );
    const lookup = service.getItem({ id: 1 });
    const outcome = expect(lookup).rejects.toBeInstanceOf(BusyError);
    await vi.advanceTimersByTimeAsync(0);
    await outcome;
    expect(erp.count()).toBe(1);
  });
});
