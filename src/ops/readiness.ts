/**
 * Readiness (`GET /readyz`): whether this replica can serve lookups now, so an orchestrator
 * stops sending it traffic while it could only answer "ERP problem".
 *
 * Checks that make a replica unready (named in `failing`, 503), because it cannot answer:
 * - `erp`: the ERP is reachable. Judged from the outcome of every real call, from the circuit
 *   breaker (read through the ONE `breakerState` adapter) and, when no call was answered for
 *   a while, from a connection check that sends no request and so costs no budget.
 * - `credentials`: the ERP accepted them (a 401/403 marks them refused). When idle, a probe
 *   call checks them at most once per `probeEveryMs`, only when the budget has a slot free
 *   at once (users never wait behind it); it goes through the lookup service, so the budget,
 *   the breaker and the ledger see it like any other call.
 * - `slack`: Slack verified the bot token (auth.test) and, in Socket Mode, the WebSocket to
 *   Slack is open. Slack unreachable at start is no reason to exit: the replica serves
 *   `/healthz` and `/readyz`, not ready, until it reaches Slack.
 *
 * Checks that only degrade it (named in `degraded`, still 200): `redis` when configured, and
 * any dependency registered with `degradable(name)` (the database). Without them a replica
 * still answers, from its memory cache and memory budget, so a deployment that routes on
 * readiness keeps answering through a Redis restart instead of going dark on every replica at
 * once (docs/operations.md, "Readiness").
 *
 * A refused connection is seen at the next tick (default every 10 s) and cleared by the next
 * connection check that gets through, so readiness follows the ERP within 30 s both ways.
 */
import {
  AuthError,
  ErpError,
  ServerError,
  TenantError,
  UnavailableError,
  type UnavailableReason,
} from '../erp/errors.js';
import type { ErpEvents } from '../erp/events.js';
import type { AppLogger } from '../log/logger.js';
import type { Metrics } from '../lookup/metrics.js';
import { ConnectionCheckError } from './connectionCheck.js';

/** What one ERP call says about the ERP's health; `undefined` when it says nothing. */
export type ErpSignal =
  | { kind: 'answered' }
  | { kind: 'credentials_refused'; code: 'erp_auth' | 'erp_tenant' }
  | { kind: 'unreachable'; reason: UnavailableReason };

/** Reasons the connection check can see and clear again (the ERP refused or vanished). */
const CONNECTION_REASONS: ReadonlySet<UnavailableReason> = new Set([
  'refused',
  'reset',
  'dns',
  'network',
]);

/**
 * A call's signal (`error` undefined: it succeeded). Only reasons that concern the ERP's reachability count: an
 * oversized body, our own open breaker or a local queue says nothing new about it.
 */
export function signalOf(error: unknown): ErpSignal | undefined {
  if (error === undefined) return { kind: 'answered' };
  if (error instanceof AuthError) return { kind: 'credentials_refused', code: 'erp_auth' };
  if (error instanceof TenantError) return { kind: 'credentials_refused', code: 'erp_tenant' };
  if (error instanceof UnavailableError) {
    return CONNECTION_REASONS.has(error.reason) || error.reason === 'timeout'
      ? { kind: 'unreachable', reason: error.reason }
      : undefined;
  }
  // A 5xx may concern one record only; repeated ones open the breaker, which readiness reads.
  if (error instanceof ServerError) return undefined;
  // 404, 400, 429, a body that does not match: the ERP answered and accepted the credentials.
  if (error instanceof ErpError) return { kind: 'answered' };
  return undefined;
}

/** Hands `observe` the signal of every ERP call that says something about the ERP's health. */
export function followErpCalls(events: ErpEvents, observe: (signal: ErpSignal) => void): void {
  events.on('callEnded', ({ error }) => {
    const signal = signalOf(error);
    if (signal) observe(signal);
  });
}

/** The adapter onto the circuit breaker: re-point this one function when the breaker moves. */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** The fixed checks, and any name a dependency was registered under. */
type CheckName = 'erp' | 'credentials' | 'redis' | 'slack' | (string & {});

interface CheckResult {
  ok: boolean;
  /** A short reason code or phrase; never a secret, a URL or personal data. */
  detail: string;
  /** When the current verdict began (ISO time), when known. */
  since?: string;
  /** Set on a failing check that only degrades the replica (it stays ready). */
  degraded?: true;
}

export interface ReadinessReport {
  /** `ready` (200) may still list `degraded` parts; `not ready` is 503. */
  status: 'ready' | 'not ready';
  /** The checks that make the replica unready, in a fixed order. */
  failing: CheckName[];
  /** The parts that are away while the replica still serves (Redis, the database). */
  degraded: CheckName[];
  checks: Partial<Record<CheckName, CheckResult>>;
  /** The catalogue index's progress (informational: an index still filling does not fail). */
  catalogue?: Record<string, unknown>;
}

export interface ReadinessOptions {
  breakerState: () => BreakerState;
  /** A cheap ERP call through the budget; its outcome arrives through `observe`. */
  probeErp: () => Promise<unknown>;
  /** Whether a call could be sent now without waiting for budget. */
  budgetFree: () => boolean;
  /** Connects to the ERP without a request; rejects with `ConnectionCheckError`. Optional. */
  connectErp?: () => Promise<void>;
  /** The Redis client, when REDIS_URL is set (`status` is ioredis's). */
  redis?: { readonly status: string };
  socketMode: boolean;
  metrics?: Metrics;
  logger: AppLogger;
  now?: () => number;
  /** How often the checks run. Default 10 s. */
  tickMs?: number;
  /** No ERP answer for this long: the connection check runs. Default 15 s. */
  quietMs?: number;
  /** At most one probe call per this long. Default 60 s. */
  probeEveryMs?: number;
}

interface Verdict<T> {
  value: T;
  since: number;
}

/**
 * A neighbour's state, reported by whoever talks to it. `up()` and `down(reason)` may be
 * called as often as convenient: only a change of state is logged (one line), and the first
 * `up()` of a dependency never seen down is not news.
 */
export interface DependencyState {
  /** It answers (again). */
  up(): void;
  /** It cannot be used now; `reason` is a short code or phrase, never a secret or a URL. */
  down(reason: string): void;
}

interface DependencyOptions {
  /** The caller logs the changes itself (with a hint only it can give); readiness stays silent. */
  quiet?: boolean;
}

interface Dependency {
  /** `degradable`: away means degraded (200); `required`: away means not ready (503). */
  kind: 'degradable' | 'required';
  /** `undefined`: not known yet (connecting); `true`: up; a string: down, and why. */
  verdict: Verdict<true | string> | undefined;
}

/** The part of a Socket Mode client readiness listens to. */
export interface SocketEvents {
  on(event: string, listener: () => void): unknown;
}

const CHECK_ORDER: readonly CheckName[] = ['erp', 'credentials', 'redis', 'slack'];

export class Readiness {
  private readonly now: () => number;
  private readonly tickMs: number;
  private readonly quietMs: number;
  private readonly probeEveryMs: number;
  /** `undefined` reason: reachable. The whole verdict is undefined until first known. */
  private erp: Verdict<UnavailableReason | undefined> | undefined;
  private credentials: Verdict<'accepted' | 'erp_auth' | 'erp_tenant'> | undefined;
  private lastAnswerAt: number | undefined;
  private lastProbeAt: number | undefined;
  private socket: Verdict<boolean> = { value: false, since: 0 };
  private readonly dependencies = new Map<CheckName, Dependency>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private probing = false;

  constructor(private readonly options: ReadinessOptions) {
    this.now = options.now ?? Date.now;
    this.tickMs = options.tickMs ?? 10_000;
    this.quietMs = options.quietMs ?? 15_000;
    this.probeEveryMs = options.probeEveryMs ?? 60_000;
  }

  /** Feeds one ERP call's outcome (see `observedErp`). */
  readonly observe = (signal: ErpSignal): void => {
    if (signal.kind === 'unreachable') {
      this.setErp(signal.reason);
      return;
    }
    this.lastAnswerAt = this.now();
    this.setErp(undefined);
    if (signal.kind === 'credentials_refused') this.setCredentials(signal.code);
    else this.setCredentials('accepted');
  };

  /** Follows a Socket Mode client's connection (its `connected` … `disconnected` events). */
  readonly watchSocket = (client: SocketEvents): void => {
    const set = (connected: boolean) => {
      if (this.socket.value !== connected) this.socket = { value: connected, since: this.now() };
      this.updateGauges();
    };
    client.on('connected', () => set(true));
    for (const event of ['close', 'reconnecting', 'disconnected']) {
      client.on(event, () => set(false));
    }
  };

  /**
   * Registers a neighbour the replica can serve without, from memory (the database): while it
   * is away `/readyz` stays 200 and names it under `degraded`. Until its first `up()` or
   * `down()` it counts as degraded ("connecting"), without a log line.
   */
  degradable(name: CheckName, options: DependencyOptions = {}): DependencyState {
    return this.dependency(name, 'degradable', options);
  }

  /**
   * Registers a neighbour the replica cannot serve without (Slack's token check): until its
   * first `up()` and while it is down, `/readyz` is 503 naming it under `failing`.
   */
  required(name: CheckName, options: DependencyOptions = {}): DependencyState {
    return this.dependency(name, 'required', options);
  }

  private dependency(
    name: CheckName,
    kind: Dependency['kind'],
    { quiet = false }: DependencyOptions,
  ): DependencyState {
    const dependency: Dependency = { kind, verdict: undefined };
    this.dependencies.set(name, dependency);
    const logger = this.options.logger;
    const set = (value: true | string) => {
      const before = dependency.verdict?.value;
      if (before === value) return;
      dependency.verdict = { value, since: this.now() };
      const effect =
        kind === 'degradable' ? 'degraded: serving without it' : 'not ready until it answers';
      if (quiet) {
        // The caller logs the change in its own words.
      } else if (value !== true) {
        logger.warn({ dependency: name, reason: value }, `Readiness: ${name} is away (${effect})`);
      } else if (before !== undefined) {
        logger.info({ dependency: name }, `Readiness: ${name} is back`);
      }
      this.updateGauges();
    };
    return { up: () => set(true), down: (reason) => set(reason) };
  }

  /** Starts the periodic checks (idempotent); the first runs at once. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.check(), this.tickMs);
    this.timer.unref();
    void this.check();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * One round of checks; concurrent callers share it. Connection check when the ERP was
   * quiet or refused connections; probe call when quiet for `probeEveryMs`.
   */
  check(): Promise<void> {
    this.running ??= this.runChecks()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'Readiness check failed'))
      .finally(() => {
        this.running = undefined;
        this.updateGauges();
      });
    return this.running;
  }

  private async runChecks(): Promise<void> {
    const now = this.now();
    const quiet = this.lastAnswerAt === undefined || now - this.lastAnswerAt >= this.quietMs;
    const refused = this.erp?.value !== undefined && CONNECTION_REASONS.has(this.erp.value);
    if (this.options.connectErp && (quiet || refused)) {
      try {
        await this.options.connectErp();
        // Connecting again clears a refusal; a timeout needs a real answer to clear.
        if (this.erp === undefined || refused) this.setErp(undefined);
      } catch (error) {
        this.setErp(error instanceof ConnectionCheckError ? error.reason : 'network');
        return;
      }
    }
    const probeDue =
      this.lastProbeAt === undefined || this.now() - this.lastProbeAt >= this.probeEveryMs;
    const answeredLately =
      this.lastAnswerAt !== undefined && this.now() - this.lastAnswerAt < this.probeEveryMs;
    if (probeDue && !answeredLately && !this.probing && this.options.budgetFree()) {
      this.lastProbeAt = this.now();
      this.probing = true;
      // Not awaited: a slow ERP must not hold up the next connection checks. Its outcome
      // arrives through `observe`; a refusal by the breaker or the budget is no news.
      void this.options
        .probeErp()
        .catch(() => undefined)
        .finally(() => {
          this.probing = false;
        });
    }
  }

  /** The current verdict; starts the checks if nobody did. */
  report(): ReadinessReport {
    this.start();
    return this.evaluate();
  }

  private evaluate(): ReadinessReport {
    const checks: Partial<Record<CheckName, CheckResult>> = {
      erp: this.erpCheck(),
      credentials: this.credentialsCheck(),
    };
    if (this.options.redis) {
      const status = this.options.redis.status;
      checks.redis =
        status === 'ready'
          ? { ok: true, detail: status }
          : { ok: false, detail: status, degraded: true };
    }
    for (const [name, dependency] of this.dependencies) checks[name] = dependencyCheck(dependency);
    const slackAuth = checks.slack;
    if (this.options.socketMode && slackAuth?.ok !== false) {
      checks.slack = {
        ok: this.socket.value,
        detail: this.socket.value ? 'socket connected' : 'socket not connected',
        ...(this.socket.since ? { since: iso(this.socket.since) } : {}),
      };
    }
    const names = [
      ...CHECK_ORDER,
      ...[...this.dependencies.keys()].filter((name) => !CHECK_ORDER.includes(name)),
    ];
    const away = names.filter((name) => checks[name]?.ok === false);
    const failing = away.filter((name) => !checks[name]?.degraded);
    const degraded = away.filter((name) => checks[name]?.degraded);
    return { status: failing.length === 0 ? 'ready' : 'not ready', failing, degraded, checks };
  }

  private erpCheck(): CheckResult {
    const breaker = this.options.breakerState();
    if (breaker === 'open') return { ok: false, detail: 'circuit open' };
    if (this.erp === undefined) return { ok: false, detail: 'not checked yet' };
    const since = iso(this.erp.since);
    return this.erp.value === undefined
      ? {
          ok: true,
          detail: breaker === 'half-open' ? 'reachable (circuit half-open)' : 'reachable',
          since,
        }
      : { ok: false, detail: this.erp.value, since };
  }

  private credentialsCheck(): CheckResult {
    if (this.credentials === undefined) return { ok: false, detail: 'not checked yet' };
    const { value, since } = this.credentials;
    return value === 'accepted'
      ? { ok: true, detail: 'accepted', since: iso(since) }
      : { ok: false, detail: `refused (${value})`, since: iso(since) };
  }

  private setErp(reason: UnavailableReason | undefined): void {
    if (this.erp !== undefined && this.erp.value === reason) return;
    const wasKnown = this.erp !== undefined;
    this.erp = { value: reason, since: this.now() };
    if (reason !== undefined) {
      this.options.logger.warn({ reason }, 'Readiness: the ERP is unreachable');
    } else if (wasKnown) {
      this.options.logger.info('Readiness: the ERP is reachable again');
    }
    this.updateGauges();
  }

  private setCredentials(value: 'accepted' | 'erp_auth' | 'erp_tenant'): void {
    if (this.credentials?.value === value) return;
    this.credentials = { value, since: this.now() };
    if (value !== 'accepted') {
      this.options.logger.error({ code: value }, 'Readiness: the ERP refused the credentials');
    }
    this.updateGauges();
  }

  private updateGauges(): void {
    const metrics = this.options.metrics;
    if (!metrics) return;
    const report = this.evaluate();
    metrics.ready.set(report.status === 'ready' ? 1 : 0);
    for (const [name, check] of Object.entries(report.checks)) {
      if (check) metrics.readinessCheck.set({ check: name }, check.ok ? 1 : 0);
    }
  }
}

function dependencyCheck({ kind, verdict }: Dependency): CheckResult {
  const degraded = kind === 'degradable' ? { degraded: true as const } : {};
  if (verdict === undefined) {
    return {
      ok: false,
      detail: kind === 'degradable' ? 'connecting' : 'not reached yet',
      ...degraded,
    };
  }
  const since = iso(verdict.since);
  return verdict.value === true
    ? { ok: true, detail: 'up', since }
    : { ok: false, detail: verdict.value, since, ...degraded };
}

const iso = (ms: number) => new Date(ms).toISOString();
