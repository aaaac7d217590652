/**
 * App Home's "lookups answer at once" / "busy" comes from budgetStatus: the free slots of
 * each budget now. The clock moves while it counts (a cold start counts slowly), and a
 * budget nobody has used must still read as wholly free.
 */
import { describe, expect, it } from 'vitest';
import { budgetStatus } from '../../src/lookup/budgetStatus.js';
import { createUpstream } from '../../src/lookup/lanes.js';
import { createMetrics } from '../../src/lookup/metrics.js';
import { statusLine } from '../../src/views/appHome.js';
import { NO_CATALOGUE } from '../../src/views/catalogue.js';
import { silentLogger } from './fakes.js';

/** A clock that moves on one millisecond each time it is read. */
function tickingClock(start = 1_000_000): () => number {
  let now = start;
  return () => {
    now += 1;
    return now;
  };
}

function upstream(now: () => number) {
  return createUpstream({
    credentialKey: 'test',
    limits: { getPerMinute: 60, searchPerMinute: 20, windowMs: 60_000 },
    fairShareReserve: 1 / 6,
    queueMaxWaitMs: 10_000,
    metrics: createMetrics(),
    logger: silentLogger,
    now,
  });
}

describe('budgetStatus', () => {
  it('reads an unused budget as wholly free however the clock moves while it counts', () => {
    const now = tickingClock();
    const up = upstream(now);
    const status = budgetStatus(up);
    const getItem = status.endpoints.find((e) => e.endpoint === 'getItem');
    expect(getItem).toEqual({ endpoint: 'getItem', left: 60, limit: 60 });
    const line = statusLine({
      breaker: status.breaker,
      budgets: status.endpoints,
      catalogue: NO_CATALOGUE,
    });
    expect(line).toContain('lookups answer at once');
    up.close();
  });

  it('counts the slots taken this window', async () => {
    const now = tickingClock();
    const up = upstream(now);
    const { ledger } = up.lanes.getItem;
    for (let i = 0; i < 55; i += 1) {
      const got = ledger.tryAcquire(`U${i}`);
      expect((await got).granted).toBe(true);
    }
    const getItem = budgetStatus(up).endpoints.find((e) => e.endpoint === 'getItem');
    expect(getItem?.left).toBe(5);
    up.close();
  });
});
