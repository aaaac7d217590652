/**
 * `npm start`: reads the configuration, then runs the Slack app (Socket Mode or HTTP) or,
 * with no Slack variables, the console.
 *
 *   npm start                      the app, or the console without Slack variables
 *   npm start --silent -- --once "/stock WIDGET-9"             one command, as text, then exit
 *   npm start --silent -- --once "/stock WIDGET-9" --json      the same, as Block Kit JSON
 *   npm start --silent -- --once "Is WIDGET-9 in?" --shortcut  the message shortcut on a text
 *   npm start --silent -- --step WIDGET-9 50 perth             the workflow step, outputs as JSON
 *   npm start --silent -- --tool check_stock '{"code":"WIDGET-9"}'  a tool of Slack's agent
 */
import { parseArgs } from 'node:util';
import { type App, HTTPReceiver, LogLevel, SocketModeReceiver } from '@slack/bolt';
import { consoleAppFor, createServices, type Services, slackAppFor } from './app.js';
import {
  type AppConfig,
  ConfigError,
  type ConfigWarning,
  describeConfig,
  loadConfigReport,
  loadDotEnv,
  passwordOf,
} from './config/config.js';
import { checkErpCredentials, StartupError } from './config/startup.js';
import { type AppLogger, createLogger, registerSecret, scrubSecrets } from './log/logger.js';
import { keepRunningOnStrayRejections } from './log/process.js';
import { connectSlack, type SlackConnection, type SlackStep } from './ops/slackStartup.js';
import { receiverOf, type SlackTransport } from './slack/app.js';
import { within } from './slack/delivery.js';
import { LOOKUP_STOCK_FUNCTION } from './slack/listeners/functions/lookupStock.js';
import { LOOK_UP_STOCK_CALLBACK_ID } from './slack/listeners/shortcuts/lookUpStock.js';

const USAGE = `Usage: npm start --silent [-- --once "/stock WIDGET-9" [--json]]
       npm start --silent [-- --once "message text" --shortcut [--json]]
       npm start --silent [-- --once "have we got 50 WIDGET-9 in perth?" --words [--json]]
       npm start --silent -- --step CODE [QUANTITY] [BRANCH WORDS]
       npm start --silent -- --tool NAME ['{"argument":"value"}'] [--json]

With SLACK_BOT_TOKEN set, runs the Slack app (Socket Mode with SLACK_APP_TOKEN, else HTTP on
PORT). Without it, starts a console that answers /stock and /contact in the terminal.
--shortcut runs the message shortcut "Look up stock" on the --once text; --words answers it as a
direct message to the app would (in the console, /ask <sentence> does the same). With --json, standard
output carries only the Block Kit JSON; everything else goes to standard error.
--step runs the Workflow Builder step "Look up stock" once and prints its outputs as JSON
(exit 0), or its error sentence on standard error (exit 1).
--tool calls one of the tools Slackbot calls over MCP (check_stock, find_items, find_contact,
list_watches) with its arguments as JSON, for the console's person, and prints its text (exit 0),
or its refusal (exit 1); with --json the whole result, blocks included.
See README.md for every environment variable.

Exit codes with --once: 0 answered (a record, a list, a watch or digest set or removed, the
digest off when there was none), 1 nothing found or refused, 2 usage error.
`;

function registerSecrets(config: AppConfig): void {
  registerSecret(config.slack.botToken);
  registerSecret(config.slack.appToken);
  registerSecret(config.slack.signingSecret);
  if (config.erp.kind === 'remote') registerSecret(config.erp.accessToken);
  // Both forms: the decoded password, and the encoded one a URL in an error message carries.
  for (const url of [config.redisUrl, config.watches.databaseUrl]) {
    if (url === undefined) continue;
    registerSecret(passwordOf(url));
    registerSecret(new URL(url).password);
  }
}

function slackTransport(config: AppConfig): SlackTransport {
  const botToken = config.slack.botToken ?? '';
  return config.mode === 'socket'
    ? {
        kind: 'socket',
        botToken,
        appToken: config.slack.appToken ?? '',
        port: config.port,
        host: config.host,
      }
    : {
        kind: 'http',
        botToken,
        signingSecret: config.slack.signingSecret ?? '',
        port: config.port,
        host: config.host,
      };
}

interface RunningSlack {
  app: App;
  /** Rejects when Slack refuses a token on a later attempt: the replica must stop then. */
  connection: SlackConnection;
  /** Settles once the first attempt of every step is over and the HTTP server listens. */
  started: Promise<void>;
}

/** How long shutdown waits for Bolt's receiver to stop (a socket still connecting may not). */
const STOP_WAIT_MS = 5_000;

/**
 * Starts the Slack side. Slack refusing a token stops start-up; Slack unreachable does not:
 * the receiver serves /healthz and /readyz (not ready, naming slack) while `connectSlack`
 * keeps trying in the background.
 */
function runSlack(services: Services, logger: AppLogger): RunningSlack {
  const { config } = services;
  const app = slackAppFor(services, slackTransport(config));
  const receiver = receiverOf(app);
  // Checks the ERP and its credentials now rather than at the first user's lookup.
  services.readiness.start();
  const state = services.readiness.required('slack', { quiet: true });
  // auth.test with the bot token; then, in Socket Mode, apps.connections.open with the app
  // token (whose receiver.start() also opens the small HTTP server for /healthz and /readyz).
  const steps: SlackStep[] = [{ token: 'bot', name: 'auth.test', run: () => app.init() }];
  if (receiver instanceof SocketModeReceiver) {
    steps.push({
      token: 'app',
      name: 'Socket Mode connection',
      run: () => receiver.start(),
      again: () => receiver.client.start(),
    });
  }
  // While start-up tries, the Web API client's own "http request failed" on every attempt
  // would repeat the one line connectSlack logs; Bolt's own level is back once connected.
  const boltLevel = app.logger.getLevel();
  app.logger.setLevel(LogLevel.ERROR);
  const connection = connectSlack({ steps, apiUrl: config.slack.apiUrl, state, logger });
  void connection.connected.finally(() => app.logger.setLevel(boltLevel)).catch(() => undefined);
  const started = (async () => {
    await connection.firstPass;
    if (receiver instanceof HTTPReceiver) await receiver.start(config.port);
    announce(config, logger);
  })();
  return { app, connection, started };
}

function announce(config: AppConfig, logger: AppLogger): void {
  // HOST unset: every address (what a container needs to be reached at all).
  const where =
    config.host === undefined ? `port ${config.port}` : `${config.host} port ${config.port}`;
  logger.info(
    config.mode === 'socket'
      ? `Socket Mode; /healthz, /readyz and /metrics on ${where}`
      : `Listening on ${where}: POST /slack/events${config.mcp.enabled ? ', POST /mcp' : ''}, GET /healthz, GET /readyz, GET /metrics`,
  );
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
  // Watches live in memory here; one --once command has no time for a check.
  if (!once) await services.startWatches();
  const { sandboxStockSetter } = await import('./watches/sandboxStock.js');
  return runConsole({
    buildApp: (transport) => consoleAppFor(services, transport),
    once,
    json,
    logger,
    banner: once ? undefined : banner,
    messageShortcut: { callbackId: LOOK_UP_STOCK_CALLBACK_ID, name: 'Look up stock' },
    ...(services.sandbox
      ? { setStock: sandboxStockSetter(services.sandbox.data, services.watches.checker) }
      : {}),
  });
}

function parseArguments() {
  return parseArgs({
    options: {
      once: { type: 'string' },
      json: { type: 'boolean', default: false },
      shortcut: { type: 'boolean', default: false },
      words: { type: 'boolean', default: false },
      step: { type: 'boolean', default: false },
      tool: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    // Positionals are the --step inputs: `--step WIDGET-9 50 perth`.
    allowPositionals: true,
  });
}

async function main(): Promise<number> {
  let values: ReturnType<typeof parseArguments>['values'];
  let positionals: string[];
  try {
    ({ values, positionals } = parseArguments());
  } catch (error) {
    // An unknown option or a missing value: a usage error (exit 2), in node:util's words.
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.words && (values.once === undefined || values.shortcut)) {
    process.stderr.write(`--words needs --once "a sentence" (and no --shortcut).\n\n${USAGE}`);
    return 2;
  }
  if (values.shortcut && values.once === undefined) {
    process.stderr.write(`--shortcut needs --once "message text".\n\n${USAGE}`);
    return 2;
  }
  // The console's modules load only when a console mode asks for them.
  const step = values.step
    ? (await import('./console/step.js')).parseStepArgs(positionals)
    : undefined;
  if (values.step && step === undefined) {
    process.stderr.write(`--step needs an item code: --step WIDGET-9 [50] [perth].\n\n${USAGE}`);
    return 2;
  }
  if (values.tool !== undefined && (values.once !== undefined || values.step)) {
    process.stderr.write(`--tool goes alone: --tool NAME '{"code":"WIDGET-9"}'.\n\n${USAGE}`);
    return 2;
  }
  if (values.tool !== undefined && positionals.length > 1) {
    process.stderr.write(`--tool takes its arguments as one JSON text.\n\n${USAGE}`);
    return 2;
  }
  if (values.tool !== undefined) {
    // Before anything starts: a usage error costs no ERP and no sandbox.
    const usage = (await import('./mcp/console.js')).toolCall(values.tool, positionals[0]);
    if (!usage.ok) {
      process.stderr.write(`${usage.problem}\n\n${USAGE}`);
      return 2;
    }
  }
  if (!values.step && values.tool === undefined && positionals.length > 0) {
    process.stderr.write(`Unexpected argument ${positionals[0] ?? ''}.\n\n${USAGE}`);
    return 2;
  }
  const once = values.shortcut
    ? `/shortcut ${values.once ?? ''}`
    : values.words
      ? `/ask ${values.once ?? ''}`
      : values.once;
  let config: AppConfig;
  let warnings: ConfigWarning[];
  try {
    loadDotEnv();
    ({ config, warnings } = loadConfigReport(process.env));
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
  keepRunningOnStrayRejections(logger);
  logger.info({ config: describeConfig(config) }, 'starting');
  for (const warning of warnings) {
    logger.warn({ variable: warning.variable }, `${warning.variable} ${warning.message}`);
  }
  const services = await createServices(config, logger);
  if (config.erp.kind === 'remote') {
    await checkErpCredentials(services.erp, logger).catch(async (error: unknown) => {
      await services.close();
      throw error;
    });
  }
  if (step !== undefined) {
    // The step runs over the console's receiver whatever the mode: it never reaches Slack.
    const { runStep } = await import('./console/step.js');
    const code = await runStep({
      buildApp: (transport) => consoleAppFor(services, transport),
      callbackId: LOOKUP_STOCK_FUNCTION,
      inputs: step,
      logger,
    });
    await services.close();
    return code;
  }
  if (values.tool !== undefined) {
    // A tool call answered in-process, whatever the mode: it never reaches Slack.
    const { runTool } = await import('./mcp/console.js');
    const code = await runTool({
      deps: services.listeners,
      name: values.tool,
      json: positionals[0],
      asJson: values.json ?? false,
    });
    await services.close();
    return code;
  }
  if (consoleMode) {
    const code = await runConsoleMode(services, logger, once, values.json ?? false);
    await services.close();
    return code;
  }
  // Listened for before anything starts: a signal during start-up shuts down cleanly too.
  const signalled = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info(`${signal} received: shutting down`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  const { app, connection, started } = runSlack(services, logger);
  // One signal is enough at any time, also while the first connection is still being made
  // (Socket Mode's client may be opening its socket for a long while): the race below.
  const startedFirst = await Promise.race([
    started.then(() => true),
    signalled.then(() => false),
  ]).catch(async (error: unknown) => {
    await services.close();
    throw error;
  });
  started.catch(() => undefined);
  let outcome: unknown;
  if (startedFirst) {
    await services.startWatches();
    // A refusal on a later attempt (the token revoked while Slack was unreachable) stops too.
    const refused = connection.connected.then(
      () => new Promise<never>(() => undefined),
      (error: unknown) => error,
    );
    outcome = await Promise.race([signalled, refused]);
  }
  connection.stop();
  // At most STOP_WAIT_MS, errors ignored: shutdown never hangs on one part.
  await within(app.stop(), STOP_WAIT_MS);
  await services.close();
  if (outcome !== undefined) throw outcome;
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const prefix = error instanceof StartupError ? 'Cannot start' : 'Start-up failed';
    process.stderr.write(`${prefix}: ${scrubSecrets(message)}\n`);
    process.exit(1);
  },
);
