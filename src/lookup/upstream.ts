/**
 * Every upstream call goes through here: budget slot, circuit breaker, retries.
 *
 * The retry loop is hand-written rather than cockatiel's `retry` policy because every attempt
 * must take a fresh budget slot (a retry is one more ERP call) and a 429 is not retried on a
 * timer of its own but by blocking the shared budget until the window can have turned, so
 * that no other caller spends the slot the retry is waiting for. The breaker is cockatiel's.
 */
import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
} from 'cockatiel';
import {
  type ErpEndpoint,
  ErpError,
  RateLimitedError,
  ServerError,
  UnavailableError,
} from '../erp/errors.js';
import type { AppLogger } from '../log/logger.js';
import type { BudgetQueue } from './budget.js';
import type { Ledger } from './ledger.js';
import type { Metrics } from './metrics.js';

export interface RetryOptions {
  /** Attempts for 5xx, timeouts and connection errors, the first included. Default 3. */
  attempts?: number;
  /** First backoff; doubles each time, with jitter. Default 200 ms. */
  baseDelayMs?: number;
  /** Default 2000 ms. */
  maxDelayMs?: number;
  /** Retries after a 429 (each waits for the window to turn). Default 2. */
  rateLimitedRetries?: number;
}

export interface BreakerOptions {
  /** Consecutive failed calls that open the breaker. Default 5. */
  failures?: number;
  /** How long it stays open before one trial call. Default 10 s. */
  halfOpenAfterMs?: number;
}

export interface Lane {
  queue: BudgetQueue;
  ledger: Ledger;
}

export interface UpstreamOptions {
  lanes: Record<ErpEndpoint, Lane>;
  windowMs: number;
  retry?: RetryOptions;
  breaker?: BreakerOptions;
  metrics: Metrics;
  logger: AppLogger;
  now: () => number;
  random: () => number;
}

/** Failures that say the ERP is unwell (not that we asked for something wrong). */
function countsAgainstBreaker(error: Error): boolean {
  return error instanceof ServerError || (error instanceof UnavailableError && error.retryable);
}

interface Breaker {
  policy: CircuitBreakerPolicy;
  openedAt: number | undefined;
}

export class Upstream {
  private readonly breakers = new Map<ErpEndpoint, Breaker>();
  private readonly attempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly rateLimitedRetries: number;
  private readonly halfOpenAfterMs: number;

  constructor(private readonly o: UpstreamOptions) {
    this.attempts = Math.max(1, o.retry?.attempts ?? 3);
    this.baseDelayMs = o.retry?.baseDelayMs ?? 200;
    this.maxDelayMs = o.retry?.maxDelayMs ?? 2000;
    this.rateLimitedRetries = o.retry?.rateLimitedRetries ?? 2;
    this.halfOpenAfterMs = o.breaker?.halfOpenAfterMs ?? 10_000;
  }

  async call<T>(
    endpoint: ErpEndpoint,
    requester: string | undefined,
    fn: () => Promise<T>,
  ): Promise<T> {
    let failures = 0;
    let rateLimited = 0;
    for (;;) {
      try {
        return await this.attempt(endpoint, requester, fn);
      } catch (error) {
        if (error instanceof RateLimitedError && rateLimited < this.rateLimitedRetries) {
          rateLimited += 1;
          this.backOffRateLimited(endpoint, error);
          continue;
        }
        if (this.isRetryable(error) && failures + 1 < this.attempts) {
          failures += 1;
          await sleep(this.backoffMs(failures));
          continue;
        }
        throw error;
      }
    }
  }

  private async attempt<T>(
    endpoint: ErpEndpoint,
    requester: string | undefined,
    fn: () => Promise<T>,
  ): Promise<T> {
    const breaker = this.breaker(endpoint);
    // Do not spend a budget slot (or wait for one) while the breaker would refuse anyway.
    if (this.isOpen(breaker)) throw circuitOpen(endpoint);
    const lane = this.o.lanes[endpoint];
    const slot = await lane.queue.acquire(requester);
    try {
      const result = await breaker.policy.execute(() => fn());
      lane.ledger.complete(slot);
      this.o.metrics.upstreamCalls.inc({ endpoint, outcome: 'ok' });
      return result;
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        lane.ledger.cancel(slot);
        lane.queue.kick();
        throw circuitOpen(endpoint, error);
      }
      // The request may have reached the ERP: it counts against the budget.
      lane.ledger.complete(slot);
      const outcome = error instanceof ErpError ? error.code : 'error';
      this.o.metrics.upstreamCalls.inc({ endpoint, outcome });
      throw error;
    }
  }

  /** For status pages (App Home): open while calls are refused, half-open while one is tried. */
  endpointBreakerState(endpoint: ErpEndpoint): 'closed' | 'open' | 'half-open' {
    const state = this.breakers.get(endpoint)?.policy.state;
    if (state === undefined || state === CircuitState.Closed) return 'closed';
    return state === CircuitState.HalfOpen ? 'half-open' : 'open';
  }

  private backOffRateLimited(endpoint: ErpEndpoint, error: RateLimitedError): void {
    this.o.metrics.rateLimited.inc({ endpoint });
    // Without Retry-After, wait until the ERP's window can have turned: a whole window.
    const waitMs = error.retryAfterMs ?? this.o.windowMs;
    this.o.lanes[endpoint].ledger.block(waitMs);
    this.o.logger.warn(
      { endpoint, waitMs, retryAfterMs: error.retryAfterMs },
      'ERP answered 429 although the budget allowed the call; pausing this endpoint',
    );
  }

  private isRetryable(error: unknown): boolean {
    return (
      error instanceof ServerError ||
      (error instanceof UnavailableError && error.retryable && error.reason !== 'circuit_open')
    );
  }

  /** Equal jitter: between half and all of the exponential step, so many callers' retries spread. */
  private backoffMs(failures: number): number {
    const step = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (failures - 1));
    return Math.round(step / 2 + (this.o.random() * step) / 2);
  }

  private isOpen(breaker: Breaker): boolean {
    return (
      breaker.policy.state === CircuitState.Open &&
      breaker.openedAt !== undefined &&
      this.o.now() < breaker.openedAt + this.halfOpenAfterMs
    );
  }

  private breaker(endpoint: ErpEndpoint): Breaker {
    let breaker = this.breakers.get(endpoint);
    if (breaker) return breaker;
    const policy = circuitBreaker(handleWhen(countsAgainstBreaker), {
      halfOpenAfter: this.halfOpenAfterMs,
      breaker: new ConsecutiveBreaker(this.o.breaker?.failures ?? 5),
    });
    const created: Breaker = { policy, openedAt: undefined };
    policy.onBreak(() => {
      created.openedAt = this.o.now();
      this.o.logger.warn({ endpoint, halfOpenAfterMs: this.halfOpenAfterMs }, 'ERP circuit opened');
    });
    policy.onReset(() => {
      created.openedAt = undefined;
      this.o.logger.info({ endpoint }, 'ERP circuit closed again');
    });
    this.breakers.set(endpoint, created);
    breaker = created;
    return breaker;
  }
}

function circuitOpen(endpoint: ErpEndpoint, cause?: unknown): UnavailableError {
  return new UnavailableError('The ERP is failing; calls are paused for a moment', {
    endpoint,
    reason: 'circuit_open',
    cause,
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
