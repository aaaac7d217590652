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
import type { AppsConnectionsOpenResponse } from '@slack/web-api';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { AppLogger, toBoltLogger } from '../../log/logger.js';
import type { SocketEvents } from '../../ops/readiness.js';
import {
  BODY_DEADLINE_MS,
  guardedRequestListener,
  MAX_BODY_BYTES,
  MAX_BUFFERED_BYTES,
  MAX_BUFFERED_BYTES_PER_PEER,
  RESERVED_BUFFERED_BYTES,
  SMALL_BODY_BYTES,
} from './guard.js';
import { Intake, type IntakeLimits } from './intake.js';
import { guardSocketClient } from './socketGuard.js';

const EVENTS_PATH = '/slack/events';

/**
 * The Node server's own limits. Node's defaults let a client hold a connection for 300 s
 * (`requestTimeout`) and open as many as it likes; Slack sends small bodies at once and waits
 * 3 s for an answer, so anything slower than these is not Slack.
 */
export interface ServerLimits extends IntakeLimits {
  /** Time to receive the request headers (Node: 60 s). */
  headersTimeoutMs: number;
  /** Time to receive the whole request (Node: 300 s); above the guard's body deadline. */
  requestTimeoutMs: number;
  /** How often Node looks for connections past those two timeouts (Node: every 30 s). */
  connectionsCheckingIntervalMs: number;
  /** The guard's deadline for a body once its headers arrived. */
  bodyDeadlineMs: number;
  /** The guard's body cap. */
  maxBodyBytes: number;
}

const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  connectionsCheckingIntervalMs: 1_000,
  maxConnections: 512,
  maxConnectionsPerPeer: 64,
  bodyDeadlineMs: BODY_DEADLINE_MS,
  maxBodyBytes: MAX_BODY_BYTES,
  maxBufferedBytes: MAX_BUFFERED_BYTES,
  maxBufferedBytesPerPeer: MAX_BUFFERED_BYTES_PER_PEER,
  reservedBytes: RESERVED_BUFFERED_BYTES,
  smallBodyBytes: SMALL_BODY_BYTES,
  // A /64 is the smallest block an IPv6 provider hands out; a /24 the usual IPv4 allocation.
  peerPrefixBits: { ipv4: 24, ipv6: 64 },
};

interface ReceiverGuards {
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
  readonly #intake: Intake;

  readonly #where: { port: number; host: string | undefined };

  constructor(
    options: HTTPReceiverOptions & { port: number },
    limits: ServerLimits,
    intake: Intake,
    host: string | undefined,
  ) {
    super(options);
    this.#limits = limits;
    this.#intake = intake;
    this.#where = { port: options.port, host };
  }

  // biome-ignore lint/suspicious/noExplicitAny: Bolt's start() is overloaded (http or https); this override keeps its arguments as given
  override async start(portOrListenOptions?: any, serverOptions?: any): Promise<any> {
    const limits = this.#limits;
    const options: ServerOptions = {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.connectionsCheckingIntervalMs,
      ...(serverOptions as ServerOptions | undefined),
    };
    // HOST: the address to listen on (all addresses when unset, as Node does).
    const { host } = this.#where;
    const target =
      host !== undefined && typeof portOrListenOptions !== 'object'
        ? { port: Number(portOrListenOptions ?? this.#where.port), host }
        : portOrListenOptions;
    const server: Server = await super.start(target as number | string | ListenOptions, options);
    // The intake caps connections itself (Node's maxConnections would refuse the newcomer,
    // /healthz included, while idle clients keep their places).
    this.#intake.attach(server);
    return server;
  }
}

/**
 * Socket Mode's HTTP server (the health routes) on HOST: Bolt's receiver listens on its port
 * on all addresses and has no option for one.
 */
class HostedSocketModeReceiver extends SocketModeReceiver {
  constructor(
    private readonly host: string | undefined,
    options: ConstructorParameters<typeof SocketModeReceiver>[0],
  ) {
    super(options);
  }

  override start(): Promise<AppsConnectionsOpenResponse> {
    // Bolt keeps these two private; read here only to pass the host to listen().
    const own = this as unknown as { httpServer?: Server; httpServerPort?: number };
    if (this.host === undefined || own.httpServer === undefined) return super.start();
    own.httpServer.listen(own.httpServerPort, this.host);
    return this.client.start();
  }
}

/** Counters for requests the guards refused, on the app's metrics registry. */
function refusedRequests(registry: Registry): Counter<'reason'> {
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
  transport: {
    signingSecret: string;
    port: number;
    host?: string | undefined;
    limits?: Partial<ServerLimits>;
  },
  customRoutes: CustomRoute[],
  guards: ReceiverGuards,
): HTTPReceiver {
  const limits = { ...DEFAULT_SERVER_LIMITS, ...transport.limits };
  const refused = refusedRequests(guards.registry);
  const intake = new Intake(limits, (reason) => refused.inc({ reason }));
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
    intake,
    transport.host,
  );
  const guarded = guardedRequestListener(receiver.requestListener, {
    signingSecret: transport.signingSecret,
    logger: guards.logger,
    onRefused: (reason) => refused.inc({ reason }),
    maxBodyBytes: limits.maxBodyBytes,
    bodyDeadlineMs: limits.bodyDeadlineMs,
    intake,
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
  transport: { appToken: string; port: number; host?: string | undefined },
  customRoutes: CustomRoute[],
  guards: ReceiverGuards,
  clientOptions: object,
): SocketModeReceiver {
  const refused = refusedRequests(guards.registry);
  const receiver = new HostedSocketModeReceiver(transport.host, {
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
