/**
 * The cache's own interface, without the service: `fresh(key)`, and `read(key, …)` answering
 * fresh, stale because the ERP failed, or throwing. Fake timers drive the clock (lru-cache
 * caches its reading of it until a timer fires, so the clock moves through timers).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { NotFoundError, ServerError, UnexpectedDataError } from '../../src/erp/errors.js';
import { type CacheLifetimes, type CacheRead, LookupCache } from '../../src/lookup/cache.js';
import type { LifetimeKind } from '../../src/lookup/resources.js';
import { BusyError } from '../../src/lookup/types.js';

const MINUTE = 60_000;
const START = 1_000_000;

beforeEach(() => {
  vi.useFakeTimers({ now: START });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the clock on by `ms`, firing the timers due on the way. */
function pass(ms: number): Promise<unknown> {
  return vi.advanceTimersByTimeAsync(ms);
}

function makeCache(lifetimes: Partial<CacheLifetimes> = {}) {
  return new LookupCache({
    ttlMs: MINUTE,
    contactTtlMs: 30_000,
    maxBytes: 1024 * 1024,
    now: Date.now,
    ...lifetimes,
  });
}

/** A read whose ERP answers from `answers` in turn (an Error is thrown), counting its calls. */
function loader(answers: unknown[], extra: Partial<CacheRead<unknown>> = {}) {
  const calls = { count: 0 };
  const read = (lifetime: LifetimeKind = 'items', refresh = false): CacheRead<unknown> => ({
    lifetime,
    schema: z.unknown(),
    refresh,
    load: async () => {
      const answer = answers[Math.min(calls.count, answers.length - 1)];
      calls.count += 1;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    ...extra,
  });
  return { read, calls };
}

const down = () => new ServerError('down', { endpoint: 'getItem', statusCode: 503 });

describe('LookupCache', () => {
  it('answers a new value as not from cache, then as fresh from memory until its lifetime ends', async () => {
    const cache = makeCache();
    const { read, calls } = loader([{ n: 1 }, { n: 2 }]);
    expect(cache.fresh('k')).toBeUndefined();
    const first = await cache.read('k', read());
    expect(first).toEqual({
      kind: 'answer',
      entry: { kind: 'value', data: { n: 1 }, fetchedAt: START },
      fromCache: false,
    });

    await pass(MINUTE - 1);
    expect(cache.fresh('k')?.data).toEqual({ n: 1 });
    expect(await cache.read('k', read())).toMatchObject({ kind: 'answer', fromCache: true });
    expect(calls.count).toBe(1);

    await pass(1);
    expect(cache.fresh('k')).toBeUndefined();
    expect(await cache.read('k', read())).toMatchObject({
      kind: 'answer',
      entry: { data: { n: 2 }, fetchedAt: START + MINUTE },
      fromCache: false,
    });
    expect(calls.count).toBe(2);
  });

  it('refresh goes to the ERP even with a fresh answer kept', async () => {
    const cache = makeCache();
    const { read, calls } = loader([{ n: 1 }, { n: 2 }]);
    await cache.read('k', read());
    expect(await cache.read('k', read('items', true))).toMatchObject({
      entry: { data: { n: 2 } },
      fromCache: false,
    });
    expect(calls.count).toBe(2);
  });

  it('serves a kept value, stale with the failure, when the ERP fails in a way a later call may not', async () => {
    const cache = makeCache();
    const failure = down();
    const { read } = loader([{ n: 1 }, failure]);
    await cache.read('k', read());
    await pass(MINUTE);
    expect(await cache.read('k', read())).toEqual({
      kind: 'stale',
      entry: { kind: 'value', data: { n: 1 }, fetchedAt: START },
      failure,
    });
  });

  it('serves a kept value when our own budget is busy', async () => {
    const cache = makeCache();
    const busy = new BusyError('getItem', 5_000);
    const { read } = loader([{ n: 1 }, busy]);
    await cache.read('k', read());
    await pass(MINUTE);
    expect(await cache.read('k', read())).toMatchObject({ kind: 'stale', failure: busy });
  });

  it('throws a failure that a kept answer must not hide (an answer that broke its schema)', async () => {
    const cache = makeCache();
    const broken = new UnexpectedDataError('bad shape', { endpoint: 'getItem' });
    const { read } = loader([{ n: 1 }, broken]);
    await cache.read('k', read());
    await pass(MINUTE);
    await expect(cache.read('k', read())).rejects.toBe(broken);
  });

  it('stops serving a kept value once past its stale window, for items and (capped) contacts', async () => {
    const cache = makeCache({ staleForMs: 3_600_000 });
    const items = loader([{ n: 1 }, down()]);
    const contacts = loader([{ n: 1 }, down()]);
    await cache.read('item', items.read('items'));
    await cache.read('contact', contacts.read('contacts'));

    // Contacts: 30 s fresh + at most 10 min stale, whatever staleForMs says.
    await pass(30_000 + 600_000 - 1);
    expect(await cache.read('contact', contacts.read('contacts'))).toMatchObject({
      kind: 'stale',
    });
    await pass(1);
    await expect(cache.read('contact', contacts.read('contacts'))).rejects.toBeInstanceOf(
      ServerError,
    );

    // Items: 1 min fresh + 1 h stale.
    await pass(START + MINUTE + 3_600_000 - 1 - Date.now());
    expect(await cache.read('item', items.read('items'))).toMatchObject({ kind: 'stale' });
    await pass(1);
    await expect(cache.read('item', items.read('items'))).rejects.toBeInstanceOf(ServerError);
  });

  it('remembers a 404 for its short life, and never lets one stand in for a failure', async () => {
    const cache = makeCache({ negativeTtlMs: 15_000 });
    const failure = down();
    const { read, calls } = loader([
      new NotFoundError('Not found', { endpoint: 'getItem', statusCode: 404 }),
      failure,
    ]);
    expect(await cache.read('k', read())).toMatchObject({
      kind: 'answer',
      entry: { kind: 'not_found' },
      fromCache: false,
    });
    await pass(14_999);
    expect(await cache.read('k', read())).toMatchObject({
      entry: { kind: 'not_found' },
      fromCache: true,
    });
    expect(calls.count).toBe(1);
    await pass(1);
    await expect(cache.read('k', read())).rejects.toBe(failure);
  });

  it('answers at once from a value within the revalidation window while it is fetched again', async () => {
    const cache = makeCache({ revalidateInBackgroundMs: 30_000 });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let loads = 0;
    const read: CacheRead<unknown> = {
      lifetime: 'items',
      schema: z.unknown(),
      refresh: false,
      load: async () => {
        loads += 1;
        if (loads > 1) await held;
        return { n: loads };
      },
    };
    await cache.read('k', read);
    await pass(MINUTE + 29_999);
    expect(await cache.read('k', read)).toMatchObject({
      kind: 'answer',
      entry: { data: { n: 1 } },
      fromCache: true,
    });
    expect(loads).toBe(2);
    release();
    await pass(0);
    expect(cache.fresh('k')?.data).toEqual({ n: 2 });
  });

  it('keeps an answer under its aliases, fresh exactly as long as under its key', async () => {
    const cache = makeCache();
    const { read } = loader([{ id: 5, code: 'CODE-5' }], {
      aliases: (data) => [`id:${(data as { id: number }).id}`, 'code:CODE-5'],
    });
    await cache.read('code:CODE-5', read());
    await pass(MINUTE - 1);
    expect(cache.fresh('id:5')?.data).toEqual({ id: 5, code: 'CODE-5' });
    await pass(1);
    expect(cache.fresh('id:5')).toBeUndefined();
    expect(cache.fresh('code:CODE-5')).toBeUndefined();
  });

  it('refuses lifetimes of zero and a memory bound too small to hold anything', () => {
    expect(() => makeCache({ ttlMs: 0 })).toThrow(RangeError);
    expect(
      () => new LookupCache({ ttlMs: 1, contactTtlMs: 1, maxBytes: 10, now: () => 0 }),
    ).toThrow(RangeError);
  });
});

describe('LookupCache.peek', () => {
  it('hands back what memory holds, fresh or still kept, and never loads or evicts', async () => {
    const cache = makeCache({ staleForMs: 10 * MINUTE });
    const { read, calls } = loader([{ n: 1 }]);
    expect(cache.peek('k', 'items')).toBeUndefined();
    await cache.read('k', read());
    expect(cache.peek('k', 'items')).toEqual({ kind: 'value', data: { n: 1 }, fetchedAt: START });
    await pass(5 * MINUTE);
    // Past its lifetime but still kept for stale serving: peek still sees it.
    expect(cache.peek('k', 'items')?.data).toEqual({ n: 1 });
    await pass(10 * MINUTE);
    // Too old even to serve stale: nothing, and still no load.
    expect(cache.peek('k', 'items')).toBeUndefined();
    expect(calls.count).toBe(1);
  });

  it('never answers a remembered "not found"', async () => {
    const cache = makeCache();
    const { read } = loader([new NotFoundError('gone', { endpoint: 'getItem' })]);
    const answer = await cache.read('missing', read());
    expect(answer.entry.kind).toBe('not_found');
    expect(cache.peek('missing', 'items')).toBeUndefined();
  });
});
