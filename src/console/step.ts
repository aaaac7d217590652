/**
 * `npm start -- --step WIDGET-9 50 perth`: one run of the Workflow Builder step without
 * Slack. The console receiver hands the App a `function_executed` event, as Slack would send
 * it, and a loopback server stands in for Slack's `functions.completeSuccess` /
 * `functions.completeError`; the outputs are printed as JSON.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { App } from '@slack/bolt';
import type { AppLogger } from '../log/logger.js';
import { ActivityTracker } from './activity.js';
import { CONSOLE, CONSOLE_IDENTITY } from './identity.js';
import { ConsoleReceiver } from './receiver.js';
import {
  type ConsoleTransport,
  closeServer,
  consoleTransport,
  listenOnLoopback,
  startApp,
} from './transport.js';
import { answerWebApi, readWebApiCall, send, tsCounter, type WebApiContext } from './webApi.js';

interface StepInputs {
  item_code: string;
  quantity?: number;
  branch?: string;
}

interface StepRunOptions {
  buildApp: (transport: ConsoleTransport) => App;
  /** The step's callback id, as the manifest declares it. */
  callbackId: string;
  inputs: StepInputs;
  logger: AppLogger;
  /** Default: standard output (the outputs as JSON). */
  output?: NodeJS.WritableStream;
  /** Default: standard error (the sentence of a failed run). */
  errorOutput?: NodeJS.WritableStream;
}

/**
 * `--step CODE [N] [branch words]`: the code first; then a whole number is the quantity and
 * every other word names the branch, in either order, as `/stock CODE N branch` reads them.
 * Undefined without a code.
 */
export function parseStepArgs(args: readonly string[]): StepInputs | undefined {
  const [code, ...rest] = args.flatMap((a) => a.split(/\s+/)).filter((a) => a !== '');
  if (code === undefined) return undefined;
  let quantity: number | undefined;
  const words: string[] = [];
  for (const word of rest) {
    if (quantity === undefined && /^\d{1,9}$/.test(word)) quantity = Number(word);
    else words.push(word);
  }
  return {
    item_code: code,
    ...(quantity === undefined ? {} : { quantity }),
    ...(words.length === 0 ? {} : { branch: words.join(' ') }),
  };
}

type Completion = { method: string; args: Record<string, unknown> };

/** A Slack that only ends workflow runs: every completion it accepts is kept. */
async function startCompletionServer(completions: Completion[]) {
  const context: WebApiContext = {
    botToken: undefined,
    appToken: undefined,
    users: {},
    groupMembers: () => undefined,
    channels: {},
    identity: CONSOLE_IDENTITY,
    failureFor: () => undefined,
    nextTs: tsCounter(),
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const method = /^\/api\/([\w.]+)$/.exec(request.url ?? '')?.[1] ?? '';
    const { args, token } = await readWebApiCall(request);
    const answer = answerWebApi(method, args, token, context);
    if (method.startsWith('functions.') && answer.body.ok === true) {
      completions.push({ method, args });
    }
    send(response, answer.status, answer.body, answer.headers);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => send(response, 400, { ok: false, error: 'invalid' }));
  });
  const baseUrl = await listenOnLoopback(server);
  return { apiUrl: `${baseUrl}/api/`, close: () => closeServer(server) };
}

/** The event Slack sends when a workflow reaches the step. */
function functionExecuted(callbackId: string, inputs: StepInputs) {
  const run = randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase();
  return {
    token: CONSOLE.verificationToken,
    team_id: CONSOLE.teamId,
    api_app_id: CONSOLE.appId,
    type: 'event_callback',
    event_id: `EvCONSOLE${run}`,
    event_time: Math.floor(Date.now() / 1000),
    event: {
      type: 'function_executed',
      function: { id: 'FnCONSOLE', callback_id: callbackId, type: 'app', app_id: CONSOLE.appId },
      inputs,
      function_execution_id: `FxCONSOLE${run}`,
      workflow_execution_id: `WxCONSOLE${run}`,
      event_ts: `${Math.floor(Date.now() / 1000)}.000100`,
      bot_access_token: 'xwfp-console-not-a-real-token',
    },
    authorizations: [
      {
        enterprise_id: null,
        team_id: CONSOLE.teamId,
        user_id: CONSOLE.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
  };
}

/** 0 when the run completed (outputs printed), 1 when it failed or was never completed. */
export async function runStep(options: StepRunOptions): Promise<number> {
  const output = options.output ?? process.stdout;
  const errorOutput = options.errorOutput ?? process.stderr;
  const completions: Completion[] = [];
  const slack = await startCompletionServer(completions);
  const receiver = new ConsoleReceiver({ activity: new ActivityTracker(), logger: options.logger });
  let app: App | undefined;
  try {
    app = options.buildApp(consoleTransport(receiver, slack.apiUrl));
    await startApp(app);
    const { processed } = receiver.dispatch(functionExecuted(options.callbackId, options.inputs));
    await processed;
    const [completion] = completions;
    if (completion?.method === 'functions.completeSuccess') {
      output.write(`${JSON.stringify(completion.args.outputs, null, 2)}\n`);
      return 0;
    }
    const error = completion?.args.error;
    errorOutput.write(`${typeof error === 'string' ? error : 'The step did not complete.'}\n`);
    return 1;
  } finally {
    await app?.stop();
    await slack.close();
  }
}
