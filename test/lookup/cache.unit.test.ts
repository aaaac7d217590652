import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotFoundError, ServerError } from '../../src/erp/errors.js';
import { counterValue, makeService } from './fakes.js';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2025-03-01T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('cache lifetimes', () => {
  it('serves a repeat lookup from cache with the original fetch time', async () => {
    const { erp, service, metrics } = makeService();
    const first = await service.getItem({ code: 'CODE-1' });
    await vi.advanceTimersByTimeAsync(5_000);
    const second = await service.getItem({ code: 'CODE-1' });

    expect(erp.count('getItem')).toBe(1);
    expect(first.freshness).toEqual({
      fetchedAt: new Date('2025-03-01T10:00:00Z'),
      fromCache: false,
      stale: false,
    });
    expect(second.freshness).toEqual({
      fetchedAt: new Date('2025-03-01T10:00:00Z'),
      fromCache: true,
      stale: false,
    });
    expect(second.data).toEqual(first.data);
    expect(await counterValue(metrics, 'lookup_cache_total', { kind: 'item', result: 'hit' })).toBe(
      1,
    );
    expect(
      await counterValue(metrics, 'lookup_cache_total', { kind: 'item', result: 'miss' }),
    ).toBe(1);
  });

  it('fetches again once the entry is older than ttlMs', async () => {
    const { erp, service } = makeService({ ttlMs: 60_000 });
    await service.getItem({ code: 'CODE-1' });
    await vi.advanceTimersByTimeAsync(59_999);
    await service.getItem({ code: 'CODE-1' });
    expect(erp.count()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const again = await service.getItem({ code: 'CODE-1' });
    expect(erp.count()).toBe(2);
    expect(again.freshness.fromCache).toBe(false);
  });

  it('keeps contacts for the shorter contact lifetime', async () => {
    const { erp, service } = makeService({ ttlMs: 60_000, contactTtlMs: 30_000 });
    await service.getContact({ code: 'ACME01' });
    await vi.advanceTimersByTimeAsync(29_000);
    await service.getContact({ code: 'ACME01' });
    expect(erp.count('getContact')).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await service.getContact({ code: 'ACME01' });
    expect(erp.count('getContact')).toBe(2);
  });

  it('remembers a 404 for negativeTtlMs and rethrows NotFoundError', async () => {
    const { erp, service, metrics } = makeService({ negativeTtlMs: 15_000 });
    await expect(service.getItem({ code: 'NOPE' })).rejects.toBeInstanceOf(NotFoundError);
    await vi.advanceTimersByTimeAsync(14_000);
    await expect(service.getItem({ code: 'NOPE' })).rejects.toBeInstanceOf(NotFoundError);
    expect(erp.count()).toBe(1);
    expect(
      await counterValue(metrics, 'lookup_cache_total', { kind: 'item', result: 'negative' }),
    ).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(service.getItem({ code: 'NOPE' })).rejects.toBeInstanceOf(NotFoundError);
    expect(erp.count()).toBe(2);
  });

  it('evicts the least recently used entries to stay inside maxBytes', async () => {
    const { erp, service } = makeService({ maxBytes: 16 * 1024 });
    for (let id = 1; id <= 40; id += 1) await service.getItem({ id });
    expect(erp.count()).toBe(40);
    // The newest entries are still there, the oldest were evicted.
    await service.getItem({ id: 40 });
    expect(erp.count()).toBe(40);
    await service.getItem({ id: 1 });
    expect(erp.count()).toBe(41);
  });

  it('refuses a memory bound too small to hold anything', () => {
    expect(() => makeService({ maxBytes: 10 })).toThrow(RangeError);
  });
});

describe('keys', () => {
  it('keeps codes case-sensitive but shares an entry between an id and its code', async () => {
    const { erp, service } = makeService();
    await service.getItem({ id: 5 });
    await service.getItem({ code: 'CODE-5' });
    expect(erp.count()).toBe(1);
    await expect(service.getItem({ code: 'code-5' })).rejects.toBeInstanceOf(NotFoundError);
    expect(erp.count()).toBe(2);
  });

  it('trims and lower-cases keywords, keeps their order', async () => {
    const { erp, service } = makeService();
    await service.searchItems({ words: ['  Blue ', 'WIDGET'] }, 0);
    await service.searchItems({ words: ['blue widget'] }, 0);
    await service.searchItems({ words: ['blue', 'widget', ''] }, 0);
    expect(erp.count('searchItems')).toBe(1);
    expect(erp.calls[0]?.args).toMatchObject({
      keywords: ['blue', 'widget'],
      offset: 0,
      limit: 50,
    });
    await service.searchItems({ words: ['widget', 'blue'] }, 0);
    expect(erp.count('searchItems')).toBe(2);
  });

  it('treats filters as part of the key', async () => {
    const { erp, service } = makeService();
    await service.searchItems({ words: ['bolt'], category: 3 }, 0);
    await service.searchItems({ category: 3, words: ['bolt'] }, 0);
    expect(erp.count()).toBe(1);
    await service.searchItems({ words: ['bolt'], category: 4 }, 0);
    await service.searchItems({ words: ['bolt'], category: 3, supplier: 1 }, 0);
    expect(erp.count()).toBe(3);
  });
});

describe('coalescing and refresh', () => {
  it('makes one upstream call for concurrent identical lookups', async () => {
    const { erp, service } = makeService();
    erp.hold();
    const lookups = Array.from({ length: 20 }, () => service.getItem({ code: 'CODE-2' }));
    await vi.advanceTimersByTimeAsync(0);
    erp.release();
    const results = await Promise.all(lookups);
    expect(erp.count()).toBe(1);
    expect(new Set(results.map((r) => r.data.id))).toEqual(new Set([2]));
    expect(results.every((r) => !r.freshness.fromCache)).toBe(true);
  });

  it('refresh bypasses a fresh entry but joins a call already in flight', async () => {
    const { erp, service } = makeService();
    await service.getItem({ code: 'CODE-3' });
    await vi.advanceTimersByTimeAsync(10_000);
    erp.hold();
    const refreshed = service.getItem({ code: 'CODE-3' }, { refresh: true });
    const alsoRefreshed = service.getItem({ code: 'CODE-3' }, { refresh: true });
    await vi.advanceTimersByTimeAsync(0);
    erp.release();
    const [a, b] = await Promise.all([refreshed, alsoRefreshed]);
    expect(erp.count()).toBe(2);
    expect(a.freshness.fromCache).toBe(false);
    expect(a.freshness.fetchedAt).toEqual(new Date('2025-03-01T10:00:10Z'));
    expect(b.freshness.fetchedAt).toEqual(a.freshness.fetchedAt);
    // And the refreshed answer is what later lookups get.
    const later = await service.getItem({ code: 'CODE-3' });
    expect(later.freshness).toMatchObject({ fromCache: true, fetchedAt: a.freshness.fetchedAt });
  });

  it('lets one caller give up without cancelling the shared call', async () => {
    const { erp, service } = makeService();
    erp.hold();
    const controller = new AbortController();
    const impatient = service.getItem({ code: 'CODE-4' }, { signal: controller.signal });
    const patient = service.getItem({ code: 'CODE-4' });
    await vi.advanceTimersByTimeAsync(0);
    controller.abort(new Error('user left'));
    await expect(impatient).rejects.toThrow('user left');
    erp.release();
    await expect(patient).resolves.toMatchObject({ data: { id: 4 } });
    expect(erp.count()).toBe(1);
  });
});

describe('through lru-cache', () => {
  it('stale-while-revalidate: answers at once from the kept entry and refreshes behind', async () => {
    const { erp, service } = makeService({ ttlMs: 60_000, revalidateInBackgroundMs: 30_000 });
    const first = await service.getItem({ code: 'CODE-1' });
    await vi.advanceTimersByTimeAsync(70_000);
    erp.hold();
    const revalidated = await service.getItem({ code: 'CODE-1' });
    // Answered without waiting for the held ERP call, with the kept entry and its age.
    expect(revalidated.freshness).toEqual({ ...first.freshness, fromCache: true });
    expect(erp.count('getItem')).toBe(2);
    erp.release();
    await vi.advanceTimersByTimeAsync(0);
    const after = await service.getItem({ code: 'CODE-1' });
    expect(after.freshness.fetchedAt.getTime()).toBe(first.freshness.fetchedAt.getTime() + 70_000);
    expect(after.freshness.fromCache).toBe(true);
    expect(erp.count('getItem')).toBe(2);

    // Past the revalidation window the lookup waits for the ERP again.
    await vi.advanceTimersByTimeAsync(100_000);
    const waited = await service.getItem({ code: 'CODE-1' });
    expect(waited.freshness.fromCache).toBe(false);
    expect(erp.count('getItem')).toBe(3);
  });

  it('stale-on-error: lru-cache keeps the entry when the ERP fails, and it is served marked stale', async () => {
    const { erp, service } = makeService({ ttlMs: 1_000, retry: { attempts: 1 } });
    const first = await service.getItem({ code: 'CODE-1' });
    await vi.advanceTimersByTimeAsync(2_000);
    erp.down = new ServerError('down', { endpoint: 'getItem', statusCode: 503 });
    for (let i = 0; i < 2; i += 1) {
      await expect(service.getItem({ code: 'CODE-1' })).resolves.toMatchObject({
        data: first.data,
        freshness: { fromCache: true, stale: true },
      });
    }
    erp.down = undefined;
    await expect(service.getItem({ code: 'CODE-1' })).resolves.toMatchObject({
      freshness: { fromCache: false, stale: false },
    });
  });

  it('says "busy", not "unreachable", when the kept answer is served because the budget is', async () => {
    const { service } = makeService({
      ttlMs: 1_000,
      queueMaxWaitMs: 5_000,
      limits: { getPerMinute: 1, searchPerMinute: 1, windowMs: 60_000 },
    });
    await service.getItem({ code: 'CODE-1' }, { requester: 'UA' });
    await vi.advanceTimersByTimeAsync(2_000);
    const kept = await service.getItem({ code: 'CODE-1' }, { requester: 'UB' });
    expect(kept.freshness).toMatchObject({ stale: true, staleBecause: 'busy' });
  });
});
