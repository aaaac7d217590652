/**
 * The console as a Bolt receiver: one more transport over the same App and listeners. Where
 * HTTPReceiver turns an HTTP request into `app.processEvent({ body, ack })`, this turns a typed
 * line or a pressed number into one, and hands the ack body back to the console to draw.
 */
import { type App, type Receiver, ReceiverMultipleAckError } from '@slack/bolt';
import type { AppLogger } from '../log/logger.js';
import type { ActivityTracker } from './activity.js';

type AckOutcome = { acked: true; body: unknown } | { acked: false };
type ProcessOutcome = { ok: true } | { ok: false; error: unknown };

export interface Dispatch {
  /** The ack body (`undefined` for an empty ack), or `{ acked: false }` after the ack timeout. */
  ack: Promise<AckOutcome>;
  /** Bolt has run every middleware and listener for this event. */
  processed: Promise<ProcessOutcome>;
}

interface ConsoleReceiverOptions {
  activity: ActivityTracker;
  logger: AppLogger;
  /** Slack gives up after 3 s (`operation_timeout`); so does the console. */
  ackTimeoutMs?: number;
}

export class ConsoleReceiver implements Receiver {
  private app: App | undefined;
  private readonly activity: ActivityTracker;
  private readonly logger: AppLogger;
  private readonly ackTimeoutMs: number;

  constructor(options: ConsoleReceiverOptions) {
    this.activity = options.activity;
    this.logger = options.logger;
    this.ackTimeoutMs = options.ackTimeoutMs ?? 3000;
  }

  init(app: App): void {
    this.app = app;
  }

  /** Nothing to listen on: the console calls `dispatch` itself. */
  async start(): Promise<void> {}

  async stop(): Promise<void> {}

  dispatch(body: Record<string, unknown>): Dispatch {
    const app = this.app;
    if (!app) throw new Error('ConsoleReceiver.dispatch called before the App was built');
    const done = this.activity.begin();
    let resolveAck: (outcome: AckOutcome) => void = () => {};
    const ackPromise = new Promise<AckOutcome>((resolve) => {
      resolveAck = resolve;
    });
    let acked = false;
    const timer = setTimeout(() => resolveAck({ acked: false }), this.ackTimeoutMs);
    const ack = async (response?: unknown): Promise<void> => {
      if (acked) throw new ReceiverMultipleAckError();
      acked = true;
      clearTimeout(timer);
      this.activity.touch();
      resolveAck({ acked: true, body: response });
    };
    const processed = app
      .processEvent({ body, ack })
      .then((): ProcessOutcome => ({ ok: true }))
      .catch((error: unknown): ProcessOutcome => {
        this.logger.debug({ err: error }, 'console: the app failed to process an event');
        return { ok: false, error };
      })
      .finally(() => {
        // An event nobody acknowledged has nothing more to wait for.
        if (!acked) {
          clearTimeout(timer);
          resolveAck({ acked: false });
        }
        done();
      });
    return { ack: ackPromise, processed };
  }
}
