/**
 * `npm start`: reads the configuration, then runs the Slack app (Socket Mode or HTTP) or,
 * with no Slack variables, the console.
 *
 *   npm start                                   the app, or the console without Slack variables
 *   npm start -- --once "/stock WIDGET-9"       one command, printed as text, then exit
 *   npm start -- --once "/stock WIDGET-9" --json   the same, as Block Kit JSON
 */
import { parseArgs } from 'node:util';
import type { App } from '@slack/bolt';
import { createServices, type Services, slackAppFor } from './app.js';
import {
  type AppConfig,
  ConfigError,
  describeConfig,
  loadConfig,
  loadDotEnv,
} from './config/config.js';
import { type AppLogger, createLogger, registerSecret, scrubSecrets } from './log/logger.js';
import type { SlackTransport } from './slack/app.js';

const USAGE = `Usage: npm start [-- --once "/stock WIDGET-9" [--json]]

With SLACK_BOT_TOKEN set, runs the Slack app (Socket Mode with SLACK_APP_TOKEN, else HTTP on
PORT). Without it, starts a console that answers /stock and /contact in the terminal.
See README.md for every environment variable.
`;

function registerSecrets(config: AppConfig): void {
  registerSecret(config.slack.botToken);
  registerSecret(config.slack.appToken);
  registerSecret(config.slack.signingSecret);
  if (config.erp.kind === 'remote') registerSecret(config.erp.accessToken);
  if (config.redisUrl) registerSecret(decodeURIComponent(new URL(config.redisUrl).password));
}

function slackTransport(config: AppConfig): SlackTransport {
  const botToken = config.slack.botToken ?? '';
  return config.mode === 'socket'
    ? { kind: 'socket', botToken, appToken: config.slack.appToken ?? '', port: config.port }
    : {
        kind: 'http',
        botToken,
        signingSecret: config.slack.signingSecret ?? '',
        port: config.port,
      };
}

async function runSlack(services: Services, logger: AppLogger): Promise<App> {
  const { config } = services;
  const app = slackAppFor(services, slackTransport(config));
  await app.init();
  await app.start();
  logger.info(
    config.mode === 'socket'
      ? `Connected to Slack in Socket Mode; /healthz and /metrics on port ${config.port}`
      : `Listening on port ${config.port}: POST /slack/events, GET /healthz, GET /metrics`,
  );
  return app;
}

async function runConsoleMode(
  services: Services,
  logger: AppLogger,
  once: string | undefined,
  json: boolean,
): Promise<number> {
  const banner = [
    'ERP lookups: console mode (no SLACK_BOT_TOKEN set). Type /stock … or /contact …, `help` for help, Ctrl-D to leave.',
    services.sandbox
      ? `Using the built-in sandbox ERP (${services.sandbox.url}); set ERP_BASE_URL to use your ERP.`
      : 'Using the ERP at ERP_BASE_URL.',
  ];
  // The console (its renderer, REPL and fake Slack) loads only in console mode.
  const { runConsole } = await import('./console/index.js');
  return runConsole({
    buildApp: (transport) =>
      slackAppFor(
        services,
        {
          kind: 'custom',
          receiver: transport.receiver,
          botToken: transport.token,
          botId: transport.botId,
          botUserId: transport.botUserId,
        },
        transport.slackApiUrl,
      ),
    once,
    json,
    logger,
    banner: once ? undefined : banner,
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      once: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  loadDotEnv();
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  registerSecrets(config);
  const consoleMode = config.mode === 'console';
  // In the console, logs go to stderr and only warnings show unless LOG_LEVEL says otherwise,
  // so they do not interleave with the answers.
  const logger = createLogger({
    level: consoleMode && !process.env.LOG_LEVEL ? 'warn' : config.logLevel,
    destination: consoleMode ? process.stderr : process.stdout,
  });
  logger.info({ config: describeConfig(config) }, 'starting');
  const services = await createServices(config, logger);
  if (consoleMode) {
    const code = await runConsoleMode(services, logger, values.once, values.json ?? false);
    await services.close();
    return code;
  }
  const app = await runSlack(services, logger);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info(`${signal} received: shutting down`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await app.stop();
  await services.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`Start-up failed: ${scrubSecrets(message)}\n`);
    process.exit(1);
  },
);
