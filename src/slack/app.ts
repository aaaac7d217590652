/**
 * Builds the Bolt app for one transport: Socket Mode when an app-level token is set, HTTP
 * on `POST /slack/events` otherwise, or a custom receiver (the console, tests). Every Web API
 * call goes to SLACK_API_URL.
 */
import { App, type Receiver } from '@slack/bolt';
import { type AppLogger, toBoltLogger } from '../log/logger.js';
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
    // No listener reads context.conversation; Bolt's default store costs every request a
    // conversations lookup in memory and a timer (about 4% of a cached /stock's CPU time).
    convoStore: false as const,
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
        ? new App({
            ...common,
            appToken: transport.appToken,
            socketMode: true,
            customRoutes,
            installerOptions: { port: transport.port },
          })
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
