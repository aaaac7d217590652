/**
 * The per-call timeout is a cockatiel policy (src/lookup/upstream.ts): a hung ERP call is
 * ended by it, its AbortSignal fires, and it counts as a retryable timeout that the retry
 * policy retries and the breaker counts, the same as undici's own timeouts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UnavailableError } from '../../src/erp/errors.js';
import { createMetrics } from '../../src/lookup/metrics.js';
import { makeClient } from '../erp/helpers/client-factory.js';
import { TestErpServer } from '../erp/helpers/test-erp-server.js';
import { counterValue, makeService } from './fakes.js';

async function failure(promise: Promise<unknown>): Promise<UnavailableError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UnavailableError);
  return error as UnavailableError;
}

describe('a hung ERP call (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2025-03-01T10:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is ended by the timeout policy, its signal aborted, and retried with backoff', async () => {
    const { erp, service, metrics } = makeService({
      callTimeoutMs: 1_000,
      retry: { attempts: 3, baseDelayMs: 200 },
      random: () => 1,
    });
    erp.hold();
    const lookup = failure(service.getItem({ id: 1 }));
    await vi.advanceTimersByTimeAsync(999);
    expect(erp.count()).toBe(1);
    expect(erp.calls[0]?.signal?.aborted).toBe(false);

    await vi.advanceTimersByTimeAsync(1);
    expect(erp.calls[0]?.signal?.aborted).toBe(true);
    // 200 ms backoff, then the second attempt hangs as well: 1 s, 400 ms, the third.
    await vi.advanceTimersByTimeAsync(200);
    expect(erp.count()).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000 + 400);
    expect(erp.count()).toBe(3);
    await vi.advanceTimersByTimeAsync(1_000);

    const error = await lookup;
    expect(error.reason).toBe('timeout');
    expect(error.retryable).toBe(true);
    expect(erp.calls.every((call) => call.signal?.aborted === true)).toBe(true);
    expect(
      await counterValue(metrics, 'erp_upstream_calls_total', {
        endpoint: 'getItem',
        outcome: 'erp_unavailable',
      }),
    ).toBe(3);
    erp.release();
  });

  it('answers when a retry after a timeout gets through', async () => {
    const { erp, service } = makeService({
      callTimeoutMs: 1_000,
      retry: { attempts: 2, baseDelayMs: 100 },
      random: () => 1,
    });
    erp.hold();
    const lookup = service.getItem({ id: 1 });
    await vi.advanceTimersByTimeAsync(1_000);
    erp.release();
    await vi.advanceTimersByTimeAsync(100);
    await expect(lookup).resolves.toMatchObject({ data: { id: 1 } });
    expect(erp.count()).toBe(2);
  });

  it('counts timeouts against the breaker, which then refuses without calling the ERP', async () => {
    const { erp, service } = makeService({
      callTimeoutMs: 1_000,
      retry: { attempts: 1 },
      breaker: { failures: 2, halfOpenAfterMs: 10_000 },
    });
    erp.hold();
    for (let id = 1; id <= 2; id += 1) {
      const lookup = failure(service.getItem({ id }));
      await vi.advanceTimersByTimeAsync(1_000);
      expect((await lookup).reason).toBe('timeout');
    }
    expect(service.breakerState()).toBe('open');
    const open = await failure(service.getItem({ id: 3 }));
    expect(open.reason).toBe('circuit_open');
    expect(erp.count()).toBe(2);
    erp.release();
  });

  it('bounds the ERP call only, never the wait for budget', async () => {
    const { erp, service } = makeService({
      callTimeoutMs: 1_000,
      limits: { getPerMinute: 1, searchPerMinute: 1, windowMs: 5_000 },
      fairShareReserve: 0,
      queueMaxWaitMs: 10_000,
    });
    await expect(service.getItem({ id: 1 })).resolves.toMatchObject({ data: { id: 1 } });
    // The second lookup waits ~5 s for the window to turn, far past the call timeout.
    const second = service.getItem({ id: 2 });
    await vi.advanceTimersByTimeAsync(6_000);
    await expect(second).resolves.toMatchObject({ data: { id: 2 } });
    expect(erp.count()).toBe(2);
  });
});

describe('a hung ERP call (real loopback server)', () => {
  it('is aborted on the wire by the policy, well before undici would give up', async () => {
    const server = await TestErpServer.start();
    const closed: number[] = [];
    server.answer((request) => {
      // Accept the request and say nothing; note when the client hangs up.
      request.socket.once('close', () => closed.push(Date.now()));
    });
    // undici would wait 30 s for headers; the policy ends each attempt after 150 ms.
    const erp = makeClient(server.baseUrl, { timeoutMs: 30_000 });
    const { service } = makeService({
      erp,
      metrics: createMetrics(),
      callTimeoutMs: 150,
      retry: { attempts: 2, baseDelayMs: 10 },
    });
    try {
      // Undici alone would answer only after 30 s, past the test's own timeout: a failure here
      // at all is the policy's.
      const error = await failure(service.getItem({ code: 'WIDGET-9' }));
      expect(error.reason).toBe('timeout');
      expect(server.requests).toHaveLength(2);
      // The aborted signal reached undici: both connections were dropped.
      await vi.waitFor(() => expect(closed).toHaveLength(2));
    } finally {
      await service.close();
      await erp.close();
      await server.close();
    }
  });
});
