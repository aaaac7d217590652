/**
 * Builds the Bolt app for one transport: Socket Mode when an app-level token is set, HTTP
 * on `POST /slack/events` otherwise, or a custom receiver (the console, tests). Every Web API
 * call goes to SLACK_API_URL.
 */
import {
  App,
  type CustomRoute,
  HTTPModuleFunctions,
  HTTPReceiver,
  type Receiver,
  SocketModeReceiver,
} from '@slack/bolt';
import { Counter } from 'prom-client';
import { type AppLogger, toBoltLogger } from '../log/logger.js';
import type { SocketEvents } from '../ops/readiness.js';
import type { ListenerDeps } from './deps.js';
import { guardedRequestListener } from './guard.js';
import { registerListeners } from './listeners/index.js';
import { createResponseUrlGuard } from './responseUrls.js';
import { operationalRoutes, type RouteDeps } from './routes.js';
import { guardSocketClient } from './socketGuard.js';

export type SlackTransport =
  | { kind: 'http'; botToken: string; signingSecret: string; port: number }
  | { kind: 'socket'; botToken: string; appToken: string; port: number }
  | { kind: 'custom'; receiver: Receiver; botToken: string; botId: string; botUserId: string };

export interface SlackAppOptions {
  transport: SlackTransport;
  apiUrl: string;
  logger: AppLogger;
  listeners: ListenerDeps;
  routes: RouteDeps;
  /** Handed the Socket Mode client, so readiness can follow its connection. */
  watchSocket?: (client: SocketEvents) => void;
}

/**
 * The Web API client retries briefly: an interactive answer that arrives minutes later is
 * worse than a clear failure (the SDK default is 10 retries over about 30 minutes).
 */
const makeClientOptions = (apiUrl: string, fetch: typeof globalThis.fetch) => ({
  slackApiUrl: apiUrl,
  timeout: 10_000,
  retryConfig: { retries: 2, factor: 2, minTimeout: 250, maxTimeout: 2000 },
  fetch,
});

/** Counters for requests the guards refused, on the app's metrics registry. */
function guardMetrics(routes: RouteDeps) {
  const existing = (name: string) => routes.registry.getSingleMetric(name) as Counter | undefined;
  return {
    requests:
      (existing('slack_requests_refused_total') as Counter<'reason'> | undefined) ??
      new Counter({
        name: 'slack_requests_refused_total',
        help: 'Slack requests refused before Bolt saw them, by reason',
        labelNames: ['reason'],
        registers: [routes.registry],
      }),
    responseUrls:
      existing('slack_response_url_refused_total') ??
      new Counter({
        name: 'slack_response_url_refused_total',
        help: 'Answers not sent to a response_url outside hooks.slack.com and SLACK_API_URL',
        registers: [routes.registry],
      }),
  };
}

/** Each app's receiver (Bolt keeps it private). */
const receivers = new WeakMap<App, Receiver>();

/**
 * The receiver behind an app from `createSlackApp`. Start-up starts it itself when Slack
 * cannot be reached yet: `app.start()` refuses before `app.init()` has succeeded, but the
 * HTTP server (and /healthz, /readyz) must answer meanwhile.
 */
export function receiverOf(app: App): Receiver | undefined {
  return receivers.get(app);
}

export function createSlackApp(options: SlackAppOptions): App {
  const { transport, apiUrl, logger } = options;
  const metrics = guardMetrics(options.routes);
  const responseUrls = createResponseUrlGuard({
    apiUrl,
    logger,
    onRefused: () => metrics.responseUrls.inc(),
  });
  const boltLogger = toBoltLogger(logger);
  const guards: Guards = {
    logger,
    boltLogger,
    onRefused: (reason) => metrics.requests.inc({ reason }),
    watchSocket: options.watchSocket,
  };
  const common = {
    token: transport.botToken,
    logger: boltLogger,
    clientOptions: makeClientOptions(apiUrl, responseUrls.fetch),
    // auth.test runs in app.init(): main.ts stops on Slack's refusal of the token, and retries
    // while Slack cannot be reached (the receiver already serving /healthz and /readyz, see
    // `receiverOf`). A custom receiver brings its own bot ids, so there is nothing to verify.
    deferInitialization: transport.kind !== 'custom',
    // No listener reads context.conversation; Bolt's default store costs every request a
    // conversations lookup in memory and a timer (about 4% of a cached /stock's CPU time).
    convoStore: false as const,
    // Bolt's ignoreSelf middleware drops Events API events the app's own bot user caused.
    // The only event subscribed to is app_home_opened, which a person causes, never the bot;
    // left on, it was one more middleware hop (a promise and a closure) on every request.
    ignoreSelf: false,
  };
  const customRoutes = operationalRoutes(options.routes);
  const receiver =
    transport.kind === 'http'
      ? guardedHttpReceiver(transport, customRoutes, guards)
      : transport.kind === 'socket'
        ? guardedSocketReceiver(transport, customRoutes, guards, common.clientOptions)
        : transport.receiver;
  const app =
    transport.kind === 'custom'
      ? new App({ ...common, receiver, botId: transport.botId, botUserId: transport.botUserId })
      : new App({ ...common, receiver });
  receivers.set(app, receiver);
  // Every event passes here first, from every receiver: refused response_urls are noted.
  const processEvent = app.processEvent.bind(app);
  app.processEvent = (event) => {
    responseUrls.screen(event);
    return processEvent(event);
  };
  responseUrls.useClient(app.client);
  registerListeners(app, options.listeners);
  app.error(async (error) => {
    // Bolt hands listener errors here; the listeners answer users themselves.
    logger.error(
      { err: { name: error.name, code: error.code, message: error.message } },
      'unhandled Slack error',
    );
  });
  return app;
}

interface Guards {
  logger: AppLogger;
  boltLogger: ReturnType<typeof toBoltLogger>;
  onRefused: (reason: string) => void;
  /** Handed the Socket Mode client, so readiness can follow its connection. */
  watchSocket?: (client: SocketEvents) => void;
}

const EVENTS_PATH = '/slack/events';

/** Bolt's HTTP receiver behind `guard.ts`, which checks each signature once for both. */
function guardedHttpReceiver(
  transport: Extract<SlackTransport, { kind: 'http' }>,
  customRoutes: CustomRoute[],
  guards: Guards,
): HTTPReceiver {
  const receiver = new HTTPReceiver({
    signingSecret: transport.signingSecret,
    endpoints: [EVENTS_PATH],
    port: transport.port,
    customRoutes,
    logger: guards.boltLogger,
    // guard.ts has checked the signature of everything that reaches Bolt's endpoint.
    signatureVerification: false,
    // Bolt answers 500 when it cannot read a body (an `event` that is a string, no `user`).
    // Its messages quote the body, so only the error's class is logged.
    processEventErrorHandler: async (args) => {
      guards.logger.warn(
        { event: 'slack_event_failed', errorClass: args.error.constructor.name },
        'Bolt could not process a Slack request',
      );
      return HTTPModuleFunctions.defaultProcessEventErrorHandler(args);
    },
  });
  receiver.requestListener = guardedRequestListener(receiver.requestListener, {
    signingSecret: transport.signingSecret,
    endpoints: [EVENTS_PATH],
    logger: guards.logger,
    onRefused: guards.onRefused,
  });
  return receiver;
}

/** Bolt's Socket Mode receiver, its client's message handler behind `socketGuard.ts`. */
function guardedSocketReceiver(
  transport: Extract<SlackTransport, { kind: 'socket' }>,
  customRoutes: CustomRoute[],
  guards: Guards,
  clientOptions: ReturnType<typeof makeClientOptions>,
): SocketModeReceiver {
  const receiver = new SocketModeReceiver({
    appToken: transport.appToken,
    logger: guards.boltLogger,
    customRoutes,
    installerOptions: { port: transport.port, clientOptions },
  });
  guardSocketClient(receiver.client, { logger: guards.logger, onRefused: guards.onRefused });
  // Bolt builds this receiver itself for `socketMode: true`; built here so readiness can
  // watch the client's connection.
  guards.watchSocket?.(receiver.client);
  return receiver;
}
