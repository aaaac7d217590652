/**
 * Bolt's receivers as this app runs them: the HTTP receiver behind `guard.ts`, with its Node
 * server's limits set deliberately, and the Socket Mode receiver with its client's message
 * handler behind `socketGuard.ts`. The health routes ride on either.
 */
import type { Server, ServerOptions } from 'node:http';
import type { ListenOptions } from 'node:net';
import {
  type CustomRoute,
  HTTPModuleFunctions,
  HTTPReceiver,
  type HTTPReceiverOptions,
  SocketModeReceiver,
} from '@slack/bolt';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { AppLogger, toBoltLogger } from '../../log/logger.js';
import type { SocketEvents } from '../../ops/readiness.js';
import {
  BODY_DEADLINE_MS,
  guardedRequestListener,
  MAX_BODY_BYTES,
  MAX_BUFFERED_BYTES,
} from './guard.js';
import { guardSocketClient } from './socketGuard.js';

export const EVENTS_PATH = '/slack/events';

/**
 * The Node server's own limits. Node's defaults let a client hold a connection for 300 s
 * (`requestTimeout`) and open as many as it likes; Slack sends small bodies at once and waits
 * 3 s for an answer, so anything slower than these is not Slack.
 */
export interface ServerLimits {
  /** Time to receive the request headers (Node: 60 s). */
  headersTimeoutMs: number;
  /** Time to receive the whole request (Node: 300 s); above the guard's body deadline. */
  requestTimeoutMs: number;
  /** Open connections at once; more are refused by the kernel's accept (Node: no cap). */
  maxConnections: number;
  /** The guard's deadline for a body once its headers arrived. */
  bodyDeadlineMs: number;
  /** The guard's body cap. */
  maxBodyBytes: number;
  /** What all bodies being read may hold together (the guard refuses with 503 past it). */
  maxBufferedBytes: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  maxConnections: 512,
  bodyDeadlineMs: BODY_DEADLINE_MS,
  maxBodyBytes: MAX_BODY_BYTES,
  maxBufferedBytes: MAX_BUFFERED_BYTES,
};

export interface ReceiverGuards {
  logger: AppLogger;
  boltLogger: ReturnType<typeof toBoltLogger>;
  registry: Registry;
  /** Handed the Socket Mode client, so readiness can follow its connection. */
  watchSocket?: (client: SocketEvents) => void;
}

/**
 * HTTPReceiver whose server starts with `limits`: `app.start()` with no arguments (as
 * main.ts calls it) gets them too, and explicit server options still win.
 */
class LimitedHttpReceiver extends HTTPReceiver {
  readonly #limits: ServerLimits;

  constructor(options: HTTPReceiverOptions, limits: ServerLimits) {
    super(options);
    this.#limits = limits;
  }

  // biome-ignore lint/suspicious/noExplicitAny: Bolt's start() is overloaded (http or https); this override keeps its arguments as given
  override async start(portOrListenOptions?: any, serverOptions?: any): Promise<any> {
    const limits = this.#limits;
    const options: ServerOptions = {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      ...(serverOptions as ServerOptions | undefined),
    };
    const server: Server = await super.start(
      portOrListenOptions as number | string | ListenOptions,
      options,
    );
    server.maxConnections = limits.maxConnections;
    return server;
  }
}

/** Counters for requests the guards refused, on the app's metrics registry. */
export function refusedRequests(registry: Registry): Counter<'reason'> {
  const existing = registry.getSingleMetric('slack_requests_refused_total');
  return (
    (existing as Counter<'reason'> | undefined) ??
    new Counter({
      name: 'slack_requests_refused_total',
      help: 'Slack requests refused before Bolt saw them, by reason',
      labelNames: ['reason'],
      registers: [registry],
    })
  );
}

/** Bolt's HTTP receiver behind `guard.ts`, which checks each signature once for both. */
export function guardedHttpReceiver(
  transport: { signingSecret: string; port: number; limits?: Partial<ServerLimits> },
  customRoutes: CustomRoute[],
  guards: ReceiverGuards,
): HTTPReceiver {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...transport.limits };
  const refused = refusedRequests(guards.registry);
  const receiver = new LimitedHttpReceiver(
    {
      signingSecret: transport.signingSecret,
      endpoints: [EVENTS_PATH],
      port: transport.port,
      customRoutes,
      logger: guards.boltLogger,
      // guard.ts has run Bolt's verifier on every POST, whatever its path: once is enough.
      signatureVerification: false,
      bodyLimit: limits.maxBodyBytes,
      // Bolt answers 500 when it cannot read a body (an `event` that is a string, no `user`).
      // Its messages quote the body, so only the error's class is logged.
      processEventErrorHandler: async (args) => {
        guards.logger.warn(
          { event: 'slack_event_failed', errorClass: args.error.constructor.name },
          'Bolt could not process a Slack request',
        );
        return HTTPModuleFunctions.defaultProcessEventErrorHandler(args);
      },
    },
    limits,
  );
  const guarded = guardedRequestListener(receiver.requestListener, {
    signingSecret: transport.signingSecret,
    logger: guards.logger,
    onRefused: (reason) => refused.inc({ reason }),
    maxBodyBytes: limits.maxBodyBytes,
    bodyDeadlineMs: limits.bodyDeadlineMs,
    maxBufferedBytes: limits.maxBufferedBytes,
  });
  receiver.requestListener = guarded;
  const gauge = 'slack_request_body_bytes_buffered';
  guards.registry.removeSingleMetric(gauge);
  new Gauge({
    name: gauge,
    help: 'Body bytes the HTTP guard holds for requests still being read',
    registers: [guards.registry],
    collect() {
      this.set(guarded.bufferedBytes());
    },
  });
  return receiver;
}

/** Bolt's Socket Mode receiver, its client's message handler behind `socketGuard.ts`. */
export function guardedSocketReceiver(
  transport: { appToken: string; port: number },
  customRoutes: CustomRoute[],
  guards: ReceiverGuards,
  clientOptions: object,
): SocketModeReceiver {
  const refused = refusedRequests(guards.registry);
  const receiver = new SocketModeReceiver({
    appToken: transport.appToken,
    logger: guards.boltLogger,
    customRoutes,
    installerOptions: { port: transport.port, clientOptions },
  });
  guardSocketClient(receiver.client, {
    logger: guards.logger,
    onRefused: (reason) => refused.inc({ reason }),
  });
  // Bolt builds this receiver itself for `socketMode: true`; built here so readiness can
  // watch the client's connection.
  guards.watchSocket?.(receiver.client);
  return receiver;
}
