/**
 * Builds the Bolt app for one transport: Socket Mode when an app-level token is set, HTTP
 * on `POST /slack/events` otherwise, or a custom receiver (the console, tests). Every Web API
 * call goes to SLACK_API_URL.
 */
import { App, type Receiver, SocketModeReceiver } from '@slack/bolt';
import { type AppLogger, toBoltLogger } from '../log/logger.js';
import type { SocketEvents } from '../ops/readiness.js';
import type { ListenerDeps } from './deps.js';
import { registerListeners } from './listeners/index.js';
import { operationalRoutes, type RouteDeps } from './routes.js';

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
 * The Socket Mode receiver Bolt would build for `socketMode: true`, built here so that
 * readiness can watch its client's connection.
 */
function socketReceiver(
  options: SlackAppOptions,
  transport: { appToken: string; port: number },
  customRoutes: ReturnType<typeof operationalRoutes>,
): SocketModeReceiver {
  const receiver = new SocketModeReceiver({
    appToken: transport.appToken,
    logger: toBoltLogger(options.logger),
    customRoutes,
    // Bolt hands its clientOptions (SLACK_API_URL) to the receiver the same way.
    installerOptions: { port: transport.port, clientOptions: clientOptions(options.apiUrl) },
  });
  options.watchSocket?.(receiver.client);
  return receiver;
}

/**
 * The Web API client retries briefly: an interactive answer that arrives minutes later is
 * worse than a clear failure (the SDK default is 10 retries over about 30 minutes).
 */
const clientOptions = (apiUrl: string) => ({
  slackApiUrl: apiUrl,
  timeout: 10_000,
  retryConfig: { retries: 2, factor: 2, minTimeout: 250, maxTimeout: 2000 },
});

export function createSlackApp(options: SlackAppOptions): App {
  const { transport, apiUrl, logger } = options;
  const common = {
    token: transport.botToken,
    logger: toBoltLogger(logger),
    clientOptions: clientOptions(apiUrl),
    // auth.test runs in app.init(), so a bad token stops start-up with a clear message. A
    // custom receiver brings its own bot ids, so there is nothing to verify.
    deferInitialization: transport.kind !== 'custom',
  };
  const customRoutes = operationalRoutes(options.routes);
  const app =
    transport.kind === 'http'
      ? new App({
          ...common,
          signingSecret: transport.signingSecret,
          port: transport.port,
          customRoutes,
        })
      : transport.kind === 'socket'
        ? new App({ ...common, receiver: socketReceiver(options, transport, customRoutes) })
        : new App({
            ...common,
            receiver: transport.receiver,
            botId: transport.botId,
            botUserId: transport.botUserId,
          });
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
