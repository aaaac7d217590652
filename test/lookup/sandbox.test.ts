/**
 * Against the sandbox ERP over HTTP, with limits tight enough to matter: the budget keeps the
 * app from ever causing a 429, whatever the burst.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErpClient } from '../../src/erp/client.js';
import { NotFoundError } from '../../src/erp/errors.js';
import { createMetrics } from '../../src/lookup/metrics.js';
import { createLookupService } from '../../src/lookup/service.js';
import { BusyError, type LookupService } from '../../src/lookup/types.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { silentLogger } from './fakes.js';

const WINDOW_MS = 2_000;
let sandbox: RunningSandbox;
let client: ErpClient;
let service: LookupService;

beforeEach(async () => {
  sandbox = await startSandbox({
    seed: 7,
    limits: { getItem: 10, getContact: 10, searchItems: 5, searchContact: 5, windowMs: WINDOW_MS },
    faults: { latencyMs: 15, jitterMs: 10 },
  });
  client = new ErpClient({ baseUrl: sandbox.url, ...sandbox.credentials, timeoutMs: 5_000 });
  service = createLookupService({
    erp: client,
    ttlMs: 60_000,
    contactTtlMs: 30_000,
    maxBytes: 8 * 1024 * 1024,
    limits: { getPerMinute: 10, searchPerMinute: 5, windowMs: WINDOW_MS },
    queueMaxWaitMs: 3_000,
    logger: silentLogger,
    metrics: createMetrics(),
  });
});

afterEach(async () => {
  await service.close();
  await client.close();
  await sandbox.close();
});

describe('against the sandbox ERP', () => {
  it('a burst larger than the budget gets no 429: every caller an answer or a BusyError', async () => {
    const codes = sandbox.data.items.slice(0, 30).map((item) => item.record.code);
    const results = await Promise.allSettled(
      codes.map((code, i) => service.getItem({ code }, { requester: `U${i % 5}` })),
    );
    const answered = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(sandbox.stats().rateLimited).toBe(0);
    expect(sandbox.stats().byStatus['429']).toBeUndefined();
    // Two windows' worth fit inside the 3 s bound; the rest are told to come back.
    expect(answered.length).toBeGreaterThanOrEqual(10);
    expect(answered.length + refused.length).toBe(30);
    for (const result of refused) {
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(BusyError);
    }
    for (const result of answered) {
      const { data } = (
        result as PromiseFulfilledResult<Awaited<ReturnType<LookupService['getItem']>>>
      ).value;
      expect(codes).toContain(data.code);
    }
  });

  it('pages through a search with one upstream search per 50 rows', async () => {
    const pages = [];
    for (let offset = 0; offset < 50; offset += 10) {
      pages.push(await service.searchItems({ words: ['widget'] }, offset));
    }
    expect(sandbox.stats().requests.searchItems).toBe(1);
    expect(pages[0]?.data.rows.length).toBeGreaterThan(0);
    expect(pages[0]?.data.hasPrevious).toBe(false);
  });

  it('remembers a 404 and serves repeated lookups from cache', async () => {
    await expect(service.getItem({ code: 'NO-SUCH-ITEM-1' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.getItem({ code: 'NO-SUCH-ITEM-1' })).rejects.toBeInstanceOf(NotFoundError);
    const code = sandbox.examples().itemCodes[0] ?? 'WIDGET-9';
    const first = await service.getItem({ code });
    const again = await service.getItem({ code });
    expect(again.freshness.fromCache).toBe(true);
    expect(again.data).toEqual(first.data);
    expect(sandbox.stats().requests.getItem).toBe(2);
  });
});
