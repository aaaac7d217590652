/**
 * Runs the whole app for end-to-end tests: the sandbox ERP over real HTTP, a fake Slack
 * (Web API, response_urls, Socket Mode), and the app itself through Bolt's real HTTP or
 * Socket Mode receiver, built by the same composition root as `npm start`.
 */
import { createServer, Server } from 'node:net';
import type { App } from '@slack/bolt';
import { expect } from 'vitest';
import {
  createServices,
  type ServiceOverrides,
  type Services,
  slackAppFor,
} from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { registerSecret } from '../../src/log/logger.js';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import type { Timing } from '../../src/slack/delivery.js';
import type { ServerLimits } from '../../src/slack/transport/receivers.js';
import { captureSecret } from './capture.js';
import { testDataDir } from './entry.js';
import { eventually } from './eventually.js';
import { collectingLogger } from './logSink.js';
import {
  type BlockActionsOptions,
  blockActionsPayload,
  type FakeSlack,
  type FakeSlackOptions,
  interactionForm,
  postToSlackApp,
  type SlackAppReply,
  type SlashCommandFields,
  slashCommandForm,
  startFakeSlack,
} from './slack/index.js';

export const SIGNING_SECRET = 'e2e0516e0123456789abcdef01234567';
export const BOT_TOKEN = 'xoxb-e2e-bot-token-0123456789';
export const APP_TOKEN = 'xapp-e2e-app-token-0123456789';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningApp {
  mode: 'http' | 'socket';
  /** `http://127.0.0.1:PORT`: `/slack/events`, `/healthz`, `/metrics`. */
  baseUrl: string;
  eventsUrl: string;
  app: App;
  services: Services;
  sandbox: RunningSandbox;
  slack: FakeSlack;
  /** Every log line the app wrote (JSON). */
  logLines: string[];
  /** Connections the HTTP server holds open now (HTTP mode; 0 in Socket Mode). */
  openConnections(): Promise<number>;
  /** A slash command as Slack sends it, signed; the ack is the parsed JSON body, if any. */
  command(name: string, text: string, fields?: Partial<SlashCommandFields>): Promise<Sent>;
  /** A button click as Slack sends it, signed, with a fresh response_url. */
  click(actionId: string, value: string, options?: Partial<BlockActionsOptions>): Promise<Sent>;
  stop(): Promise<void>;
}

export interface Sent {
  reply: SlackAppReply;
  /** The response_url the request carried: where the app's later answers arrive. */
  responseUrl: string;
  /** The acknowledgement's message, when the app answered on the ack itself. */
  ack: { text?: string; blocks?: unknown[]; [key: string]: unknown } | undefined;
}

export interface StartAppOptions {
  mode?: 'http' | 'socket';
  env?: Record<string, string>;
  sandbox?: SandboxOptions;
  /** Share this running sandbox (replicas of one app on one ERP) instead of starting one. */
  erp?: RunningSandbox;
  slack?: FakeSlackOptions;
  timing?: Partial<Timing>;
  /** Readiness check intervals (the /readyz tests shorten them). */
  readiness?: ServiceOverrides['readiness'];
  /** The HTTP server's and the guard's limits (a short body deadline). */
  limits?: Partial<ServerLimits>;
  /** The app's clock for listeners and watches (a test moves it instead of sleeping). */
  now?: ServiceOverrides['now'];
  /** Log level of the app; `trace` by default, so the leak scan sees every line. */
  logLevel?: 'trace' | 'info' | 'warn';
}

export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  const mode = options.mode ?? 'http';
  const sandbox = options.erp ?? (await startSandbox(options.sandbox));
  const slack = await startFakeSlack({
    botToken: BOT_TOKEN,
    appToken: APP_TOKEN,
    ...options.slack,
  });
  const port = await freePort();
  const config = loadConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    ...(mode === 'http'
      ? { SLACK_SIGNING_SECRET: SIGNING_SECRET }
      : { SLACK_APP_TOKEN: APP_TOKEN }),
    SLACK_API_URL: slack.apiUrl,
    PORT: String(port),
    ERP_BASE_URL: sandbox.url,
    ERP_COMPANY_CODE: sandbox.credentials.companyCode,
    ERP_ACCESS_TOKEN: sandbox.credentials.accessToken,
    ERP_TENANT_ID: sandbox.credentials.tenantId,
    LOG_LEVEL: 'trace',
    // Watches made here stay out of the repository's ./data, where later runs would load them.
    DATA_DIR: testDataDir(),
    ...options.env,
  });
  const erpToken = options.env?.ERP_ACCESS_TOKEN ?? sandbox.credentials.accessToken;
  for (const secret of [BOT_TOKEN, APP_TOKEN, SIGNING_SECRET, erpToken]) {
    registerSecret(secret);
    captureSecret(secret);
  }
  // Every level, so the leak scan sees what debug and trace lines would print too.
  const { logger, lines: logLines } = collectingLogger(options.logLevel ?? 'trace', 'app');
  const services = await createServices(config, logger, {
    readiness: options.readiness,
    ...(options.now ? { now: options.now } : {}),
  });
  services.listeners.timing = { ...services.listeners.timing, ...options.timing };
  const app = slackAppFor(
    services,
    mode === 'http'
      ? {
          kind: 'http',
          botToken: BOT_TOKEN,
          signingSecret: SIGNING_SECRET,
          port,
          host: config.host,
          limits: options.limits,
        }
      : { kind: 'socket', botToken: BOT_TOKEN, appToken: APP_TOKEN, port, host: config.host },
  );
  await app.init();
  // HTTP mode: the receiver's node:http server; Socket Mode: the connection's details.
  const started: unknown = await app.start();
  const server = started instanceof Server ? started : undefined;
  if (mode === 'socket') await slack.socketConnected();
  const baseUrl = `http://${config.host ?? '127.0.0.1'}:${port}`;
  const eventsUrl = `${baseUrl}/slack/events`;
  const send = async (body: string, responseUrl: string): Promise<Sent> => {
    const reply = await postToSlackApp(eventsUrl, body, { signingSecret: SIGNING_SECRET });
    return { reply, responseUrl, ack: reply.json as Sent['ack'] };
  };
  return {
    mode,
    baseUrl,
    eventsUrl,
    app,
    services,
    sandbox,
    slack,
    logLines,
    openConnections: () =>
      new Promise((resolve, reject) => {
        if (!server) return resolve(0);
        server.getConnections((error, count) => (error ? reject(error) : resolve(count)));
      }),
    command: (name, text, fields = {}) => {
      const responseUrl = slack.responseUrl();
      return send(
        slashCommandForm({ command: name, text, response_url: responseUrl, ...fields }),
        responseUrl,
      );
    },
    click: (actionId, value, options = {}) => {
      const responseUrl = slack.responseUrl();
      return send(
        interactionForm(blockActionsPayload({ actionId, value, responseUrl, ...options })),
        responseUrl,
      );
    },
    stop: async () => {
      await app.stop();
      await services.close();
      await slack.close();
      if (!options.erp) await sandbox.close();
    },
  };
}

/**
 * Resolves once every app's Redis client is connected. Until then the shared mode falls back to
 * each replica's memory at once (the client keeps no offline queue), so a test of what replicas
 * share must not start before.
 */
export async function redisReady(...runs: RunningApp[]): Promise<void> {
  await eventually(() => {
    expect(runs.map((run) => run.services.health().redis)).toEqual(runs.map(() => 'ready'));
  });
}
