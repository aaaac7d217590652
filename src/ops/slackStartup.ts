/**
 * Reaching Slack at start-up without turning a Slack incident into a crash loop.
 *
 * Slack's refusal (the token is wrong, revoked, of the wrong kind) stops start-up with a
 * message naming the variable: every later call would fail too. Slack that cannot be reached
 * (the network, a proxy, Slack's own outage) does not: the replica starts, serves `/healthz`
 * and `/readyz` (not ready, naming `slack`), and keeps trying with exponential backoff until
 * each step succeeded once, logging one line when it starts waiting and one when it is
 * through. No restart is needed.
 */
import { ExponentialBackoff, handleWhen, retry } from 'cockatiel';
import {
  classifySlackStartupError,
  explainSlackStartupError,
  type SlackToken,
} from '../config/startup.js';
import type { AppLogger } from '../log/logger.js';
import type { DependencyState } from './readiness.js';

/** One call to Slack start-up needs to have succeeded once. */
export interface SlackStep {
  /** The token the call uses, named in the message when Slack refuses it. */
  token: SlackToken;
  /** For the log: `auth.test`, `the Socket Mode connection`. */
  name: string;
  /** The first attempt. */
  run: () => Promise<unknown>;
  /** Later attempts, when they differ from the first (default: `run`). */
  again?: () => Promise<unknown>;
}

interface SlackStartupOptions {
  steps: readonly SlackStep[];
  /** SLACK_API_URL, for the messages. */
  apiUrl: string;
  /** Readiness's `slack` check: down until every step succeeded. */
  state: DependencyState;
  logger: AppLogger;
  /** Delay before the first retry, doubling (with jitter) up to `maxDelayMs`. Default 1 s. */
  initialDelayMs?: number;
  /** Longest wait between two attempts. Default 30 s. */
  maxDelayMs?: number;
}

export interface SlackConnection {
  /**
   * Settles after one attempt of every step: resolves `connected` or `retrying`; rejects with a
   * `StartupError` when Slack refused (start-up must stop), or with an unexpected error.
   */
  readonly firstPass: Promise<'connected' | 'retrying'>;
  /**
   * Settles when every step succeeded; rejects like `firstPass` when a later attempt is
   * refused (a token revoked during an outage still stops the replica, with the same words).
   */
  readonly connected: Promise<void>;
  /** Stops retrying (shutdown). */
  stop(): void;
}

export function connectSlack(options: SlackStartupOptions): SlackConnection {
  const { logger, state } = options;
  const abort = new AbortController();
  const isUnreachable = (error: unknown) => classifySlackStartupError(error) === 'unreachable';
  const explain = (error: unknown, token: SlackToken) =>
    explainSlackStartupError(error, token, options.apiUrl) ?? error;

  const pending: SlackStep[] = [];
  const firstPass = (async () => {
    for (const step of options.steps) {
      try {
        await step.run();
      } catch (error) {
        if (!isUnreachable(error)) throw explain(error, step.token);
        pending.push(step);
      }
    }
    if (pending.length === 0) {
      state.up();
      return 'connected' as const;
    }
    const step = pending[0]?.name;
    logger.warn(
      { event: 'slack_unreachable', step },
      `Could not reach Slack at ${options.apiUrl} (check SLACK_API_URL and that this host can make outgoing HTTPS requests to Slack). Starting anyway: not ready until Slack answers; retrying with backoff.`,
    );
    state.down(`unreachable (${step})`);
    return 'retrying' as const;
  })();

  const connected = firstPass.then(async (outcome) => {
    if (outcome === 'connected') return;
    const policy = retry(handleWhen(isUnreachable), {
      maxAttempts: Number.POSITIVE_INFINITY,
      backoff: new ExponentialBackoff({
        initialDelay: options.initialDelayMs ?? 1000,
        maxDelay: options.maxDelayMs ?? 30_000,
      }),
    });
    for (const step of pending) {
      try {
        await policy.execute(() => (step.again ?? step.run)(), abort.signal);
      } catch (error) {
        if (abort.signal.aborted) return;
        throw explain(error, step.token);
      }
    }
    state.up();
    logger.info({ event: 'slack_reached' }, 'Slack answered: connected, ready once the ERP is');
  });
  // The caller awaits `firstPass` and races `connected` against shutdown; an unobserved
  // rejection between the two must not count as a stray one.
  connected.catch(() => undefined);

  return { firstPass, connected, stop: () => abort.abort() };
}
