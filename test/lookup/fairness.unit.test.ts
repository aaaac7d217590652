/**
 * Fairness between users and the 429 fix, in the DEFAULT configuration (60 getItem calls a
 * minute, a one-minute window, a 60 s queue bound), on fake timers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimitedError } from '../../src/erp/errors.js';
import { fairShare, MemoryLedger } from '../../src/lookup/ledger.js';
import { BusyError } from '../../src/lookup/types.js';
import { makeService } from './fakes.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const idOf = (args: unknown): number | undefined =>
  typeof args === 'object' && args !== null && 'id' in args && typeof args.id === 'number'
    ? args.id
    : undefined;

describe('fair share between users (default configuration)', () => {
  it('60 codes from one user in 3 s leave another user a wait of the ERP’s time only', async () => {
    const { erp, service } = makeService();
    erp.latencyMs = 40;
    const burst: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i += 1) {
      burst.push(service.getItem({ id: i + 1 }, { requester: 'UALICE' }).catch((e) => e));
      await vi.advanceTimersByTimeAsync(50);
    }
    // Alice took her share (60 minus a sixth): the other 10 wait for her own slots.
    expect(erp.count()).toBe(50);
    expect(service.queuePosition('getItem', 'UALICE')).toMatchObject({ ownAhead: 10 });
    expect(service.queuePosition('getItem', 'UALICE').waitMs).toBeGreaterThan(50_000);
    expect(service.queuePosition('getItem', 'UBOB')).toEqual({ ownAhead: 0, waitMs: 0 });

    const askedAt = Date.now();
    const bob = service.getItem({ id: 999 }, { requester: 'UBOB' });
    await vi.advanceTimersByTimeAsync(100);
    await expect(bob).resolves.toMatchObject({
      data: { id: 999 },
      freshness: { fromCache: false, stale: false },
    });
    const bobCall = erp.calls.find((call) => idOf(call.args) === 999);
    expect(bobCall?.at).toBe(askedAt);

    // Alice's queued lookups are not refused: they go when her own slots free.
    await vi.advanceTimersByTimeAsync(65_000);
    const outcomes = await Promise.all(burst);
    expect(outcomes.filter((outcome) => outcome instanceof Error)).toEqual([]);
    expect(erp.count()).toBe(61);
  });

  it('a burst from many users uses the whole budget at once', async () => {
    const { erp, service } = makeService();
    const lookups = Array.from({ length: 60 }, (_, i) =>
      service.getItem({ id: i + 1 }, { requester: `U${i}` }),
    );
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all(lookups);
    expect(erp.calls.map((call) => call.at)).toEqual(Array.from({ length: 60 }, () => 0));
  });

  it('cache hits never wait, even for a user at its share', async () => {
    const { erp, service } = makeService();
    await service.getItem({ id: 1 }, { requester: 'UALICE' });
    for (let i = 2; i <= 51; i += 1) void service.getItem({ id: i }, { requester: 'UALICE' });
    await vi.advanceTimersByTimeAsync(0);
    expect(service.queuePosition('getItem', 'UALICE').ownAhead).toBe(1);
    await expect(service.getItem({ id: 1 }, { requester: 'UALICE' })).resolves.toMatchObject({
      freshness: { fromCache: true },
    });
    expect(erp.count()).toBe(50);
  });
});

describe('429 without Retry-After (default configuration)', () => {
  it('waits until the ledger’s window turns, then retries', async () => {
    const { erp, service } = makeService();
    await service.getItem({ id: 1 });
    await vi.advanceTimersByTimeAsync(20_000);
    erp.failWith(
      'getItem',
      new RateLimitedError('Too many requests', { endpoint: 'getItem', statusCode: 429 }),
    );
    const lookup = service.getItem({ id: 2 });
    // The oldest call in the ledger leaves the window at 60 s: 40 s from now, not 60.
    await vi.advanceTimersByTimeAsync(39_000);
    expect(erp.count('getItem')).toBe(2);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(lookup).resolves.toMatchObject({ data: { id: 2 } });
    expect(erp.calls[2]?.at).toBeGreaterThanOrEqual(60_000);
    expect(erp.calls[2]?.at).toBeLessThan(61_000);
  });

  it('retries after a whole window when the refused call is the only one held', async () => {
    const { erp, service } = makeService();
    erp.failWith(
      'getItem',
      new RateLimitedError('Too many requests', { endpoint: 'getItem', statusCode: 429 }),
    );
    const lookup = service.getItem({ id: 1 });
    await vi.advanceTimersByTimeAsync(61_000);
    await expect(lookup).resolves.toMatchObject({ data: { id: 1 } });
    expect(erp.count()).toBe(2);
  });

  it('keeps the 429 as the cause when the retry cannot be queued', async () => {
    const { erp, service } = makeService({ queueMaxWaitMs: 10_000 });
    const rateLimited = new RateLimitedError('Too many requests', {
      endpoint: 'getItem',
      statusCode: 429,
    });
    erp.failWith('getItem', rateLimited);
    const lookup = service.getItem({ id: 1 });
    const outcome = lookup.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    const error = await outcome;
    expect(error).toBeInstanceOf(BusyError);
    expect(error instanceof BusyError ? error.cause : undefined).toBe(rateLimited);
    expect(erp.count()).toBe(1);
  });
});

describe('ledger estimates', () => {
  it('start times need no array the size of the limit (a huge limit answers at once)', () => {
    let now = 0;
    const ledger = new MemoryLedger(1_000_000, 60_000, () => now, fairShare(1_000_000, 1 / 6));
    for (let i = 0; i < 3; i += 1) {
      const acquired = ledger.tryAcquire('U1');
      if (acquired.granted) ledger.complete(acquired.slot);
    }
    now = 10;
    expect(ledger.startAt(0)).toBe(10);
    expect(ledger.startAt(999_999)).toBe(60_000);
    expect(ledger.startAt(2_000_000)).toBeGreaterThan(120_000);
    expect(ledger.shareStartAt('U1', 0)).toBe(10);
  });

  it('waitMs: how long until ahead + 1 slots are free (a share its own)', () => {
    let now = 0;
    const ledger = new MemoryLedger(2, 1_000, () => now);
    expect([ledger.waitMs(0), ledger.waitMs(1)]).toEqual([0, 0]);
    for (let i = 0; i < 2; i += 1) {
      const acquired = ledger.tryAcquire('U1');
      if (acquired.granted) ledger.complete(acquired.slot);
    }
    now = 400;
    // Both slots free a window after their answers, at 1 000.
    expect([ledger.waitMs(0), ledger.waitMs(1)]).toEqual([600, 600]);
    expect(ledger.shareWaitMs('U1', 0)).toBe(600);
    expect(ledger.shareWaitMs('U2', 0)).toBe(0);
    now = 1_000;
    expect(ledger.waitMs(0)).toBe(0);
  });

  it('waitMs reads the clock after counting: a free slot is no wait on a clock that moves', () => {
    // Each read of the clock is a millisecond later, as on a busy machine.
    let t = 0;
    const ledger = new MemoryLedger(3, 1_000, () => {
      t += 1;
      return t;
    });
    expect([0, 1, 2].map((ahead) => ledger.waitMs(ahead))).toEqual([0, 0, 0]);
    expect(ledger.shareWaitMs('U1', 0)).toBe(0);
    expect(ledger.waitMs(3)).toBeGreaterThan(0);
  });
});
