/**
 * Every upstream call goes through here: cockatiel policies composed once per endpoint,
 * around one attempt that takes a budget slot and calls the ERP.
 *
 *   retry 429s (no delay of its own: the 429 pauses the ledger, the next attempt queues)
 *     → retry 5xx / timeouts / connection failures (exponential backoff, equal jitter)
 *       → circuit breaker (consecutive failures; the ONE place its state is read from)
 *         → budget slot
 *           → timeout (aggressive: the ERP call's AbortSignal fires and the attempt ends)
 *             → ERP call
 *
 * The slot is taken inside the breaker, so an open breaker refuses before any budget is spent
 * or waited for, and every retry is a fresh slot (a retry is one more ERP call). The timeout
 * sits inside the slot, so it bounds the ERP call alone, never the wait for budget; a call it
 * ends leaves as `UnavailableError` reason `timeout`, the kind undici's own connect, headers
 * and body timeouts produce, so retry, breaker, metrics and views treat both alike.
 */
import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  ConstantBackoff,
  circuitBreaker,
  DelegateBackoff,
  handleType,
  handleWhen,
  type IPolicy,
  retry,
  TaskCancelledError,
  type TimeoutPolicy,
  TimeoutStrategy,
  timeout,
  wrap,
} from 'cockatiel';
import {
  ERP_ENDPOINTS,
  type ErpEndpoint,
  ErpError,
  InvalidInputError,
  RateLimitedError,
  ServerError,
  UnavailableError,
} from '../erp/errors.js';
import type { AppLogger } from '../log/logger.js';
import { BackgroundRequester } from './background.js';
import type { BudgetQueue } from './fairQueue.js';
import type { Ledger, Slot } from './ledger.js';
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

interface UpstreamOptions {
  lanes: Record<ErpEndpoint, Lane>;
  retry?: RetryOptions;
  breaker?: BreakerOptions;
  /**
   * Longest one ERP call (one attempt) may take, from the moment it has its budget slot to its
   * last body byte. Past it the call's AbortSignal fires and the attempt fails as a retryable
   * timeout. Default 8000 ms (ERP_TIMEOUT_MS); undici's per-phase timeouts stay beneath it.
   */
  callTimeoutMs?: number;
  metrics: Metrics;
  logger: AppLogger;
  now: () => number;
  random: () => number;
}

export type BreakerState = 'closed' | 'open' | 'half-open';

/** Failures that say the ERP is unwell (not that we asked for something wrong). */
function countsAgainstBreaker(error: Error): boolean {
  return error instanceof ServerError || (error instanceof UnavailableError && error.retryable);
}

function isRetryable(error: Error): boolean {
  return (
    error instanceof ServerError ||
    (error instanceof UnavailableError && error.retryable && error.reason !== 'circuit_open')
  );
}

const STATE_NAMES: Record<CircuitState, BreakerState> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Open]: 'open',
  [CircuitState.Isolated]: 'open',
};

const GAUGE_VALUES: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

/** Worst first: one endpoint open means the ERP is not healthy. */
const SEVERITY: readonly BreakerState[] = ['open', 'half-open', 'closed'];

interface Lanes {
  breaker: CircuitBreakerPolicy;
  policy: IPolicy;
  /** Bounds the ERP call inside one attempt (after its budget slot). */
  deadline: TimeoutPolicy;
}

/** The ERP call itself; `signal` aborts when the attempt's deadline passes. */
export type UpstreamCall<T> = (signal: AbortSignal) => Promise<T>;

const DEFAULT_CALL_TIMEOUT_MS = 8000;

/** What one call remembers between its attempts. */
interface CallState {
  rateLimit: RateLimitedError | undefined;
}

/** A call that runs in the background: one ERP call with its slot, retries and breaker. */
interface BackgroundLane extends BackgroundRequester {
  /**
   * Waits for a slot on the background's terms (see BackgroundRequester), then makes the call
   * under the lane's policies; every retry waits for a fresh slot on the same terms.
   */
  run<T>(fn: UpstreamCall<T>, signal?: AbortSignal): Promise<T>;
}

export class Upstream {
  private readonly policies = new Map<ErpEndpoint, Lanes>();
  /** The budget lanes, one per endpoint (queue and ledger). */
  readonly lanes: Record<ErpEndpoint, Lane>;

  constructor(private readonly options: UpstreamOptions) {
    this.lanes = options.lanes;
    for (const endpoint of ERP_ENDPOINTS) {
      this.policies.set(endpoint, this.compose(endpoint));
    }
  }

  /** One ERP call for `requester` (a Slack user, the readiness probe …) through the fair queue. */
  call<T>(endpoint: ErpEndpoint, requester: string | undefined, fn: UpstreamCall<T>): Promise<T> {
    const { queue } = this.options.lanes[endpoint];
    return this.execute(endpoint, fn, (state) =>
      // A retry after a 429 that cannot be queued keeps the 429 as its cause.
      queue.acquire(requester, undefined, state.rateLimit),
    );
  }

  /**
   * A background requester on `endpoint`'s lane: its own name and `share` (0..1 of the limit)
   * of the window, never a slot while a user waits, never the last free slot (the catalogue
   * crawl on searchItems, watches on getItem).
   */
  background(endpoint: ErpEndpoint, name: string, share: number): BackgroundLane {
    const requester = new BackgroundRequester(this.options.lanes[endpoint], name, share);
    return Object.assign(requester, {
      run: <T>(fn: UpstreamCall<T>, signal?: AbortSignal): Promise<T> =>
        this.execute(endpoint, fn, () => requester.acquire(signal)),
    });
  }

  /** Refuses every waiting and later caller (shutdown). */
  close(): void {
    for (const endpoint of ERP_ENDPOINTS) this.options.lanes[endpoint].queue.close();
  }

  private async execute<T>(
    endpoint: ErpEndpoint,
    fn: UpstreamCall<T>,
    acquire: (state: CallState) => Promise<Slot>,
  ): Promise<T> {
    const state: CallState = { rateLimit: undefined };
    try {
      return await this.lane(endpoint).policy.execute(() =>
        this.attempt(endpoint, fn, state, acquire),
      );
    } catch (error) {
      if (error instanceof BrokenCircuitError) throw circuitOpen(endpoint, error);
      throw error;
    }
  }

  /** The breaker's state, per endpoint or (none given) the worst of them; metrics and health read this. */
  breakerState(endpoint?: ErpEndpoint): BreakerState {
    if (endpoint) return STATE_NAMES[this.lane(endpoint).breaker.state];
    const states = new Set([...this.policies.values()].map((l) => STATE_NAMES[l.breaker.state]));
    return SEVERITY.find((state) => states.has(state)) ?? 'closed';
  }

  private lane(endpoint: ErpEndpoint): Lanes {
    const lane = this.policies.get(endpoint);
    if (!lane) throw new RangeError(`no policies for ${endpoint}`);
    return lane;
  }

  private compose(endpoint: ErpEndpoint): Lanes {
    const settings = this.options.retry ?? {};
    const callTimeoutMs = this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    if (!Number.isFinite(callTimeoutMs) || callTimeoutMs <= 0)
      throw new RangeError(`callTimeoutMs must be > 0, got ${callTimeoutMs}`);
    const deadline = timeout(callTimeoutMs, TimeoutStrategy.Aggressive);
    deadline.onTimeout(() =>
      this.options.logger.warn({ endpoint, callTimeoutMs }, 'ERP call timed out; abandoning it'),
    );
    const halfOpenAfter = this.options.breaker?.halfOpenAfterMs ?? 10_000;
    const breaker = circuitBreaker(handleWhen(countsAgainstBreaker), {
      halfOpenAfter,
      breaker: new ConsecutiveBreaker(this.options.breaker?.failures ?? 5),
    });
    breaker.onBreak(() =>
      this.options.logger.warn({ endpoint, halfOpenAfterMs: halfOpenAfter }, 'ERP circuit opened'),
    );
    breaker.onReset(() => this.options.logger.info({ endpoint }, 'ERP circuit closed again'));
    breaker.onStateChange((state) =>
      this.options.metrics.circuit.set({ endpoint }, GAUGE_VALUES[STATE_NAMES[state]]),
    );
    const failures = retry(handleWhen(isRetryable), {
      maxAttempts: Math.max(1, settings.attempts ?? 3) - 1,
      backoff: new DelegateBackoff((context) => this.backoffMs(context.attempt, settings)),
    });
    const rateLimits = retry(handleType(RateLimitedError), {
      maxAttempts: settings.rateLimitedRetries ?? 2,
      backoff: new ConstantBackoff(0),
    });
    return { breaker, policy: wrap(rateLimits, failures, breaker), deadline };
  }

  private async attempt<T>(
    endpoint: ErpEndpoint,
    fn: UpstreamCall<T>,
    state: CallState,
    acquire: (state: CallState) => Promise<Slot>,
  ): Promise<T> {
    const { queue, ledger } = this.options.lanes[endpoint];
    const slot = await acquire(state);
    try {
      const result = await this.bounded(endpoint, fn);
      ledger.complete(slot);
      this.options.metrics.upstreamCalls.inc({ endpoint, outcome: 'ok' });
      return result;
    } catch (error) {
      if (error instanceof InvalidInputError) {
        // Refused by the client before any request: the ERP saw nothing, the slot is free.
        ledger.cancel(slot);
        queue.kick();
        throw error;
      }
      // The request may have reached the ERP: it counts against the budget.
      ledger.complete(slot);
      const outcome = error instanceof ErpError ? error.code : 'error';
      this.options.metrics.upstreamCalls.inc({ endpoint, outcome });
      if (error instanceof RateLimitedError) {
        state.rateLimit = error;
        this.backOffRateLimited(endpoint, error);
      }
      throw error;
    }
  }

  /** The ERP call under the lane's timeout policy; a deadline passed is a retryable timeout. */
  private async bounded<T>(endpoint: ErpEndpoint, fn: UpstreamCall<T>): Promise<T> {
    const { deadline } = this.lane(endpoint);
    try {
      return await deadline.execute(({ signal }) => fn(signal));
    } catch (error) {
      if (error instanceof TaskCancelledError) {
        throw new UnavailableError(`ERP ${endpoint}: timed out (${error.message})`, {
          endpoint,
          reason: 'timeout',
          cause: error,
        });
      }
      throw error;
    }
  }

  private backOffRateLimited(endpoint: ErpEndpoint, error: RateLimitedError): void {
    this.options.metrics.rateLimited.inc({ endpoint });
    // Without Retry-After, wait until the ERP's window can have turned: when the oldest call
    // this ledger holds leaves the window (not a whole window from now).
    const ledger = this.options.lanes[endpoint].ledger;
    const waitMs = error.retryAfterMs ?? Math.max(1, ledger.windowTurnsAt() - this.options.now());
    if (error.clamped) {
      this.options.logger.warn(
        { endpoint, askedRetryAfterMs: error.askedRetryAfterMs, waitMs },
        'ERP asked for a longer pause than the app takes after a 429; pausing for the longest instead',
      );
    }
    ledger.block(waitMs);
    this.options.logger.warn(
      { endpoint, waitMs, retryAfterMs: error.retryAfterMs },
      'ERP answered 429 although the budget allowed the call; pausing this endpoint',
    );
  }

  /** Equal jitter: between half and all of the exponential step, so many callers' retries spread. */
  private backoffMs(attempt: number, settings: RetryOptions): number {
    const base = settings.baseDelayMs ?? 200;
    const step = Math.min(settings.maxDelayMs ?? 2000, base * 2 ** Math.max(0, attempt - 1));
    return Math.round(step / 2 + (this.options.random() * step) / 2);
  }
}

function circuitOpen(endpoint: ErpEndpoint, cause?: unknown): UnavailableError {
  return new UnavailableError('The ERP is failing; calls are paused for a moment', {
    endpoint,
    reason: 'circuit_open',
    cause,
  });
}
