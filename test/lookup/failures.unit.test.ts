import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AuthError,
  BadRequestError,
  ServerError,
  TenantError,
  UnavailableError,
  UnexpectedDataError,
} from '../../src/erp/errors.js';
import { counterValue, makeService } from './fakes.js';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2025-03-01T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

const serverError = () =>
  new ServerError('ERP answered 500', { endpoint: 'getItem', statusCode: 500 });
const refused = () =>
  new UnavailableError('connection refused', { endpoint: 'getItem', reason: 'refused' });

describe('retries', () => {
  it('retries a 5xx with growing, jittered backoff and returns the answer', async () => {
    const { erp, service, metrics } = makeService({
      retry: { attempts: 3, baseDelayMs: 200 },
      random: () => 1,
    });
    erp.failWith('getItem', serverError(), refused());
    const lookup = service.getItem({ id: 1 });
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(lookup).resolves.toMatchObject({ data: { id: 1 } });
    const start = erp.calls[0]?.at ?? 0;
    const [first, second, third] = erp.calls.map((c) => c.at - start);
    expect(first).toBe(0);
    expect(second).toBe(200);
    expect(third).toBe(600);
    expect(
      await counterValue(metrics, 'erp_upstream_calls_total', {
        endpoint: 'getItem',
        outcome: 'erp_server',
      }),
    ).toBe(1);
    expect(
      await counterValue(metrics, 'erp_upstream_calls_total', {
        endpoint: 'getItem',
        outcome: 'ok',
      }),
    ).toBe(1);
  });

  it('gives up after the last attempt with the ERP error', async () => {
    const { erp, service } = makeService({ retry: { attempts: 3, baseDelayMs: 100 } });
    erp.down = serverError();
    const lookup = service.getItem({ id: 1 });
    const outcome = expect(lookup).rejects.toBeInstanceOf(ServerError);
    await vi.advanceTimersByTimeAsync(2_000);
    await outcome;
    expect(erp.count()).toBe(3);
  });

  it.each([
    ['auth (401)', new AuthError('bad credentials', { endpoint: 'getItem', statusCode: 401 })],
    ['tenant (403)', new TenantError('bad tenant', { endpoint: 'getItem', statusCode: 403 })],
    ['bad request (400)', new BadRequestError('bad', { endpoint: 'getItem', statusCode: 400 })],
    ['unexpected data', new UnexpectedDataError('drift', { endpoint: 'getItem' })],
    [
      'oversized body',
      new UnavailableError('too big', { endpoint: 'getItem', reason: 'too_large' }),
    ],
  ])('does not retry %s', async (_name, error) => {
    const { erp, service } = makeService();
    erp.failWith('getItem', error);
    await expect(service.getItem({ id: 1 })).rejects.toBe(error);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(erp.count()).toBe(1);
  });
});

describe('circuit breaker', () => {
  it('opens after consecutive failures, then lets one trial call through later', async () => {
    const { erp, service } = makeService({
      retry: { attempts: 1 },
      breaker: { failures: 3, halfOpenAfterMs: 10_000 },
    });
    erp.down = serverError();
    for (let id = 1; id <= 3; id += 1) {
      await expect(service.getItem({ id })).rejects.toBeInstanceOf(ServerError);
    }
    const open = await service.getItem({ id: 4 }).catch((error: unknown) => error);
    expect(open).toBeInstanceOf(UnavailableError);
    expect((open as UnavailableError).reason).toBe('circuit_open');
    expect(erp.count()).toBe(3);

    erp.down = undefined;
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(service.getItem({ id: 4 })).resolves.toMatchObject({ data: { id: 4 } });
    await expect(service.getItem({ id: 5 })).resolves.toMatchObject({ data: { id: 5 } });
    expect(erp.count()).toBe(5);
  });

  it('reports closed → open → half-open → closed from cockatiel, to breakerState and the gauge', async () => {
    const { erp, service, metrics } = makeService({
      retry: { attempts: 1 },
      breaker: { failures: 2, halfOpenAfterMs: 10_000 },
    });
    const gauge = () => counterValue(metrics, 'erp_circuit_state', { endpoint: 'getItem' });
    expect(service.breakerState()).toBe('closed');
    erp.down = serverError();
    for (let id = 1; id <= 2; id += 1) {
      await expect(service.getItem({ id })).rejects.toBeInstanceOf(ServerError);
    }
    expect(service.breakerState()).toBe('open');
    expect(await gauge()).toBe(2);

    await vi.advanceTimersByTimeAsync(10_000);
    erp.down = undefined;
    erp.hold();
    const trial = service.getItem({ id: 3 });
    await vi.advanceTimersByTimeAsync(0);
    expect(service.breakerState()).toBe('half-open');
    expect(await gauge()).toBe(1);
    // Only the trial call goes through while half-open; the next one waits for its outcome.
    const next = service.getItem({ id: 4 });
    await vi.advanceTimersByTimeAsync(0);
    expect(erp.count()).toBe(3);
    erp.release();
    await expect(trial).resolves.toMatchObject({ data: { id: 3 } });
    await expect(next).resolves.toMatchObject({ data: { id: 4 } });
    expect(service.breakerState()).toBe('closed');
    expect(await gauge()).toBe(0);
  });

  it('does not count 404s or 401s against the ERP', async () => {
    const { erp, service } = makeService({ retry: { attempts: 1 }, breaker: { failures: 2 } });
    for (let i = 0; i < 4; i += 1) {
      erp.failWith('getItem', new AuthError('no', { endpoint: 'getItem', statusCode: 401 }));
      await expect(service.getItem({ id: i + 1 })).rejects.toBeInstanceOf(AuthError);
    }
    await expect(service.getItem({ code: 'MISSING' })).rejects.toThrow();
    await expect(service.getItem({ id: 9 })).resolves.toMatchObject({ data: { id: 9 } });
  });
});

describe('stale answers while the ERP is down', () => {
  it('serves the kept answer marked stale, then a clear error once it is too old', async () => {
    const { erp, service, metrics } = makeService({
      ttlMs: 60_000,
      staleForMs: 600_000,
      retry: { attempts: 2, baseDelayMs: 10 },
    });
    const fresh = await service.getItem({ code: 'CODE-1' });
    erp.down = refused();
    await vi.advanceTimersByTimeAsync(120_000);

    const lookup = service.getItem({ code: 'CODE-1' });
    await vi.advanceTimersByTimeAsync(100);
    const stale = await lookup;
    expect(stale.data).toEqual(fresh.data);
    expect(stale.freshness).toEqual({
      fetchedAt: fresh.freshness.fetchedAt,
      fromCache: true,
      stale: true,
    });
    expect(
      await counterValue(metrics, 'lookup_cache_total', { kind: 'item', result: 'stale' }),
    ).toBe(1);

    await vi.advanceTimersByTimeAsync(600_000);
    const tooOld = service.getItem({ code: 'CODE-1' }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(100);
    expect(await tooOld).toBeInstanceOf(UnavailableError);
  });

  it('marks a failed refresh as stale even while the kept answer is within its lifetime', async () => {
    const { erp, service } = makeService({ retry: { attempts: 1 } });
    await service.getItem({ code: 'CODE-2' });
    erp.down = serverError();
    await vi.advanceTimersByTimeAsync(5_000);
    const refreshed = await service.getItem({ code: 'CODE-2' }, { refresh: true });
    expect(refreshed.freshness).toMatchObject({ fromCache: true, stale: true });
  });

  it('never keeps contacts stale for more than 10 minutes', async () => {
    const { erp, service } = makeService({
      contactTtlMs: 30_000,
      staleForMs: 3_600_000,
      retry: { attempts: 1 },
    });
    await service.getContact({ code: 'ACME01' });
    erp.down = new ServerError('down', { endpoint: 'getContact', statusCode: 503 });
    await vi.advanceTimersByTimeAsync(30_000 + 9 * 60_000);
    await expect(service.getContact({ code: 'ACME01' })).resolves.toMatchObject({
      freshness: { stale: true },
    });
    await vi.advanceTimersByTimeAsync(61_000);
    await expect(service.getContact({ code: 'ACME01' })).rejects.toBeInstanceOf(ServerError);
  });

  it('serves stale when the circuit is open, without calling the ERP', async () => {
    const { erp, service } = makeService({
      retry: { attempts: 1 },
      breaker: { failures: 1 },
      ttlMs: 1_000,
    });
    await service.getItem({ id: 1 });
    await vi.advanceTimersByTimeAsync(2_000);
    erp.down = serverError();
    await expect(service.getItem({ id: 2 })).rejects.toBeInstanceOf(ServerError);
    const calls = erp.count();
    await expect(service.getItem({ id: 1 })).resolves.toMatchObject({ freshness: { stale: true } });
    expect(erp.count()).toBe(calls);
  });
});
