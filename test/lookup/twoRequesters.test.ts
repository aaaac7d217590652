/**
 * No two requesters can keep a third waiting: the graded reserve (ledger.ts) on fake clocks,
 * in the default configuration (60 getItem and 20 searches a minute, a sixth kept back).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fairShare, gradedReserve, MemoryLedger, reserveGrace } from '../../src/lookup/ledger.js';
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

/** Takes slots for `requester` until the ledger refuses; returns how many it got. */
function drain(ledger: MemoryLedger, requester: string): number {
  let got = 0;
  for (;;) {
    const acquired = ledger.tryAcquire(requester);
    if (!acquired.granted) return got;
    got += 1;
  }
}

describe('the graded reserve', () => {
  it('holds back as many as a requester holds, up to the reserve', () => {
    expect(gradedReserve(0, 10)).toBe(0);
    expect(gradedReserve(3, 10)).toBe(3);
    expect(gradedReserve(40, 10)).toBe(10);
    expect(gradedReserve(5, 0)).toBe(0);
  });

  it("never holds back a requester's first few slots", () => {
    expect(reserveGrace(60)).toBe(3);
    expect(gradedReserve(2, 10, 3)).toBe(0);
    expect(gradedReserve(5, 10, 3)).toBe(2);
    expect(gradedReserve(40, 10, 3)).toBe(10);
  });

  it('lets a burst from many people, a few lookups each, use the whole minute at once', () => {
    const ledger = new MemoryLedger(60, 60_000, () => 0, fairShare(60, 1 / 6));
    let granted = 0;
    // Twenty people asking three things each, interleaved as a burst arrives.
    for (let round = 0; round < 3; round += 1) {
      for (let person = 0; person < 20; person += 1) {
        if (ledger.tryAcquire(`U${person}`).granted) granted += 1;
      }
    }
    expect(granted).toBe(60);
  });

  // A reserve of one slot is the first slot of the second requester: the rule needs two or more.
  for (const limit of [60, 20, 12]) {
    it(`two greedy requesters always leave a third a free slot (limit ${limit})`, () => {
      let now = 0;
      const ledger = new MemoryLedger(limit, 60_000, () => now, fairShare(limit, 1 / 6));
      const alone = drain(ledger, 'UALICE');
      // Alone, a requester still reaches its whole share.
      expect(alone).toBe(ledger.share);
      drain(ledger, 'workflow:lookup_stock');
      now = 5;
      const third = ledger.tryAcquire('UCAROL');
      expect(third.granted).toBe(true);
    });
  }

  it('however the two interleave, a third finds a free slot (60 a minute)', () => {
    const now = 0;
    const ledger = new MemoryLedger(60, 60_000, () => now, fairShare(60, 1 / 6));
    for (let round = 0; round < 100; round += 1) {
      ledger.tryAcquire(round % 3 === 0 ? 'UALICE' : 'workflow:lookup_stock');
    }
    expect(ledger.tryAcquire('UCAROL').granted).toBe(true);
    // The refusal for the greedy two is their own ('share'): the queue serves others meanwhile.
    const refused = ledger.tryAcquire('UALICE');
    expect(refused.granted ? undefined : refused.refusal).toBe('share');
  });
});

describe('a person behind a person and 60 workflow runs', () => {
  it('is answered at once, not after the window turns', async () => {
    const { erp, service } = makeService();
    erp.latencyMs = 40;
    const flood: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i += 1) {
      flood.push(
        service.getItem({ id: 1000 + i }, { requester: 'workflow:lookup_stock' }).catch((e) => e),
      );
      flood.push(service.getItem({ id: 2000 + i }, { requester: 'UALICE' }).catch((e) => e));
    }
    await vi.advanceTimersByTimeAsync(2_000);
    const askedAt = Date.now();
    const carol = service.getItem({ id: 7 }, { requester: 'UCAROL' });
    await vi.advanceTimersByTimeAsync(200);
    await expect(carol).resolves.toMatchObject({ data: { id: 7 } });
    const sent = erp.calls.find((call) => idOf(call.args) === 7)?.at ?? Number.NaN;
    // Sent at once: the two greedy requesters left her a slot.
    expect(sent - askedAt).toBeLessThan(100);
    // The flood is paced, not refused by the reserve: it goes on as slots free.
    await vi.advanceTimersByTimeAsync(180_000);
    await Promise.all(flood);
  });

  it('a second and a third newcomer are also answered within a few seconds', async () => {
    const { erp, service } = makeService();
    erp.latencyMs = 40;
    for (let i = 0; i < 60; i += 1) {
      void service.getItem({ id: 1000 + i }, { requester: 'workflow:lookup_stock' }).catch(() => 0);
      void service.getItem({ id: 2000 + i }, { requester: 'UALICE' }).catch(() => 0);
    }
    await vi.advanceTimersByTimeAsync(2_000);
    for (const [n, person] of ['UCAROL', 'UDAN', 'UERIN'].entries()) {
      const askedAt = Date.now();
      const lookup = service.getItem({ id: 10 + n }, { requester: person });
      await vi.advanceTimersByTimeAsync(5_000);
      await expect(lookup).resolves.toMatchObject({ data: { id: 10 + n } });
      const sent = erp.calls.find((call) => idOf(call.args) === 10 + n)?.at ?? Number.NaN;
      expect(sent - askedAt).toBeLessThanOrEqual(5_000);
    }
  });
});
