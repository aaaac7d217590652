/**
 * Builds the Bolt app for one transport: Socket Mode when an app-level token is set, HTTP
 * on `POST /slack/events` otherwise, or a custom receiver (the console, tests). Every Web API
 * call goes to SLACK_API_URL. Transport lives in `transport/`, the listeners in `listeners/`.
 */
import { App, type AppOptions, type CustomRoute, type Receiver } from '@slack/bolt';
import { Counter, type Registry } from 'prom-client';
import { type AppLogger, toBoltLogger } from '../log/logger.js';
import type { SocketEvents } from '../ops/readiness.js';
import type { ListenerDeps } from './deps.js';
import { registerListeners } from './listeners/index.js';
import {
  guardedHttpReceiver,
  guardedSocketReceiver,
  type ServerLimits,
} from './transport/receivers.js';
import { createResponseUrlGuard, screeningMiddleware } from './transport/responseUrls.js';
import { exactly, operationalRoutes, type RouteDeps } from './transport/routes.js';

export type SlackTransport =
  | {
      kind: 'http';
      botToken: string;
      signingSecret: string;
      port: number;
      /** HOST: the address to listen on; all addresses when unset. */
      host?: string | undefined;
      /** The HTTP server's and the guard's limits (tests shorten the body deadline). */
      limits?: Partial<ServerLimits>;
    }
  | {
      kind: 'socket';
      botToken: string;
      appToken: string;
      port: number;
      host?: string | undefined;
    }
  | { kind: 'custom'; receiver: Receiver; botToken: string; botId: string; botUserId: string };

interface SlackAppOptions {
  transport: SlackTransport;
  apiUrl: string;
  logger: AppLogger;
  listeners: ListenerDeps;
  routes: RouteDeps;
  /** Handed the Socket Mode client, so readiness can follow its connection. */
  watchSocket?: (client: SocketEvents) => void;
  /**
   * More routes for the HTTP receiver alone (the MCP server), behind the same guard as
   * `/slack/events`; handed the app's Web API client once the app is built.
   */
  httpRoutes?: (client: () => App['client']) => CustomRoute[];
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

function refusedResponseUrls(registry: Registry): Counter {
  const existing = registry.getSingleMetric('slack_response_url_refused_total');
  return (
    (existing as Counter | undefined) ??
    new Counter({
      name: 'slack_response_url_refused_total',
      help: 'Answers not sent to a response_url outside Slack hooks (or a non-default SLACK_API_URL)',
      registers: [registry],
    })
  );
}

/**
 * The one place the Bolt App is constructed: its options beyond the receiver, the token and
 * the logger are decided here.
 */
function newBoltApp(options: AppOptions): App {
  return new App({
    // No listener reads context.conversation; Bolt's default store would look every
    // conversation up in memory and keep a timer for it.
    convoStore: false,
    // A block_actions or view payload may carry a `bot_access_token`; Bolt would make it the
    // listener's client (and users.info answers read with it would be cached as ours). Only a
    // workflow step's run acts with its own token, and it completes with the bot token.
    attachFunctionToken: false,
    ...options,
  });
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
  const { registry } = options.routes;
  const refused = refusedResponseUrls(registry);
  const responseUrls = createResponseUrlGuard({ apiUrl, logger, onRefused: () => refused.inc() });
  const boltLogger = toBoltLogger(logger);
  const clientOptions = makeClientOptions(apiUrl, responseUrls.fetch);
  const guards = { logger, boltLogger, registry, watchSocket: options.watchSocket };
  let built: App | undefined;
  const appClient = (): App['client'] => {
    if (built === undefined) throw new Error('the Slack app is not built yet');
    return built.client;
  };
  const customRoutes = [
    ...operationalRoutes(options.routes),
    ...(transport.kind === 'http' ? (options.httpRoutes?.(appClient) ?? []).map(exactly) : []),
  ];
  const common: AppOptions = {
    token: transport.botToken,
    logger: boltLogger,
    clientOptions,
    // auth.test runs in app.init(): main.ts stops on Slack's refusal of the token, and retries
    // while Slack cannot be reached (the receiver already serving /healthz and /readyz, see
    // `receiverOf`). A custom receiver brings its own bot ids, so there is nothing to verify.
    deferInitialization: transport.kind !== 'custom',
  };
  const receiver =
    transport.kind === 'http'
      ? guardedHttpReceiver(transport, customRoutes, guards)
      : transport.kind === 'socket'
        ? guardedSocketReceiver(transport, customRoutes, guards, clientOptions)
        : transport.receiver;
  const app =
    transport.kind === 'custom'
      ? newBoltApp({ ...common, receiver, botId: transport.botId, botUserId: transport.botUserId })
      : newBoltApp({ ...common, receiver });
  built = app;
  receivers.set(app, receiver);
  responseUrls.useClient(app.client);
  // Where each refused response_url should have answered is noted, so the answer can go
  // through the Web API instead: listener middleware of the listeners that get one.
  registerListeners(app, options.listeners, screeningMiddleware(responseUrls));
  app.error(async (error) => {
    // Bolt hands listener errors here; the listeners answer users themselves.
    logger.error(
      { err: { type: error.name, code: error.code, message: error.message } },
      'unhandled Slack error',
    );
  });
  return app;
}
