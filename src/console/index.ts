/**
 * "Try it without Slack": the same Bolt App, listeners, lookup service and Block Kit views,
 * driven from a terminal. The console is a Bolt receiver (typed lines become slash-command
 * bodies, numbers become button clicks), and a loopback server stands in for Slack to receive
 * what the app sends back: `response_url` posts and Web API calls.
 */
import type { App } from '@slack/bolt';
import type { AppLogger } from '../log/logger.js';
import { ACTION } from '../views/actions.js';
import { ANSWER_KIND, REFERENCE_HEADER } from '../views/blocks.js';
import { ActivityTracker } from './activity.js';
import { Board, type BoardMessage } from './board.js';
import { FakeSlackServer } from './fakeSlack.js';
import { ConsoleReceiver } from './receiver.js';
import { defaultHistoryFile, runRepl, Screen } from './repl.js';
import {
  ASK_WORD,
  ConsoleSession,
  DEFAULT_TIMING,
  type LineOutcome,
  type MessageShortcut,
  type SessionOptions,
  type SessionTiming,
} from './session.js';
import { type ConsoleTransport, consoleTransport, startApp } from './transport.js';

export { blockKitBuilderUrl } from './builderLink.js';
export { type ConsoleButton, renderMessage } from './render.js';
export type { ConsoleTransport } from './transport.js';

export interface ConsoleOptions {
  /**
   * Returns a Bolt App built with the transport's options and all listeners registered.
   * Use `clientOptions.retryConfig: { retries: 0 }` as well: nothing here is worth retrying.
   */
  buildApp: (transport: ConsoleTransport) => App;
  /** Default: standard input. */
  input?: NodeJS.ReadableStream;
  /** Default: standard output. */
  output?: NodeJS.WritableStream;
  /** Non-interactive: run this one line (e.g. `/stock WIDGET-9`), print the answer, exit. */
  once?: string;
  /** With `once`: print each message's exact Block Kit JSON (`{ text, blocks }`) instead. */
  json?: boolean;
  /** Default: when the output is a terminal and NO_COLOR is not set. */
  color?: boolean;
  logger: AppLogger;
  /** Lines printed at start, e.g. "Using the built-in sandbox ERP". Not printed with `json`. */
  banner?: string[];
  /** Remarks and errors when `json` is on, so standard output stays pure JSON. Default: stderr. */
  errorOutput?: NodeJS.WritableStream;
  /** Where the REPL keeps its history; `false` for none. Default: ~/.erp-lookups-history. */
  historyFile?: string | false;
  /** The slash commands the app answers. Default: /stock and /contact. */
  commands?: readonly string[];
  /** The app's message shortcut, tried with `/shortcut <message text>`. Default: none. */
  messageShortcut?: MessageShortcut;
  /** Waiting rules for answers (tests shorten them). */
  timing?: Partial<SessionTiming>;
  /** `set-stock`, with the built-in sandbox ERP: see `SessionOptions.setStock`. */
  setStock?: SessionOptions['setStock'];
}

type Output = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

function wantsColor(output: Output): boolean {
  const noColor = process.env.NO_COLOR;
  return Boolean(output.isTTY) && (noColor === undefined || noColor === '');
}

function flush(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/** `--once` exit codes, for scripts (README "Console"). */
const ONCE_EXIT = { answered: 0, nothing: 1, usage: 2 } as const;

/**
 * Buttons only an answer with data carries: a record's Refresh, a list's View. A "not found",
 * a refusal, a "busy" or an ERP problem has none of them; the help and the catalogue's lists
 * say they are answers with their header's block id instead.
 */
const ANSWER_ACTIONS: readonly string[] = [
  ACTION.itemRefresh,
  ACTION.contactRefresh,
  ACTION.itemView,
  ACTION.contactView,
];

const hasBlockId =
  (id: string) =>
  (block: unknown): boolean =>
    typeof block === 'object' &&
    block !== null &&
    (block as { block_id?: unknown }).block_id === id;
const isReferenceHeader = hasBlockId(REFERENCE_HEADER);

function onceExitCode(
  line: string,
  outcome: LineOutcome,
  shown: { before: BoardMessage | undefined; after: BoardMessage | undefined },
  commands: readonly string[],
): number {
  const word = line.trim().toLowerCase().split(/\s+/)[0] ?? '';
  const known = commands.some((command) => word === command || `/${word}` === command);
  // The session refused the line itself: not a command of this app, nothing to press.
  if (outcome === 'failed' && shown.after === shown.before && !known) return ONCE_EXIT.usage;
  if (outcome !== 'ok' || shown.after === undefined || shown.after === shown.before) {
    return ONCE_EXIT.nothing;
  }
  if (shown.after.blocks.some(hasBlockId(ANSWER_KIND.usage))) return ONCE_EXIT.usage;
  const answered =
    shown.after.blocks.some(hasBlockId(ANSWER_KIND.done)) ||
    shown.after.buttons.some((button) =>
      ANSWER_ACTIONS.some((action) => button.actionId.startsWith(action)),
    ) ||
    shown.after.blocks.some(isReferenceHeader);
  return answered ? ONCE_EXIT.answered : ONCE_EXIT.nothing;
}

/** Resolves with an exit code when the input ends (Ctrl-D), on `quit`, or when `once` is done. */
export async function runConsole(options: ConsoleOptions): Promise<number> {
  const output: Output = options.output ?? process.stdout;
  const errorOutput = options.errorOutput ?? process.stderr;
  const color = options.color ?? wantsColor(output);
  const json = options.once !== undefined && options.json === true;
  const screen = new Screen(output);
  const activity = new ActivityTracker();
  const board = new Board({
    write: screen.write,
    writeNote: json ? (text) => errorOutput.write(text) : screen.write,
    color,
    json,
    width: () => (output.isTTY && output.columns ? output.columns : 80),
  });
  const server = new FakeSlackServer(board, activity, options.logger);
  await server.start();
  const receiver = new ConsoleReceiver({ activity, logger: options.logger });
  let app: App | undefined;
  try {
    app = options.buildApp(consoleTransport(receiver, server.apiUrl));
    await startApp(app);
    const session = new ConsoleSession({
      receiver,
      board,
      activity,
      responseUrl: (key) => server.responseUrl(key),
      write: json ? (text) => errorOutput.write(text) : screen.write,
      color,
      commands: options.commands ?? ['/stock', '/contact'],
      ...(options.messageShortcut ? { messageShortcut: options.messageShortcut } : {}),
      ...(options.setStock ? { setStock: options.setStock } : {}),
      timing: { ...DEFAULT_TIMING, ...options.timing },
    });
    if (!json) for (const line of options.banner ?? []) output.write(`${line}\n`);
    if (options.once !== undefined) {
      const before = board.lastMessage();
      const outcome = await session.runLine(options.once);
      const shown = { before, after: board.lastMessage() };
      const commands = [...(options.commands ?? ['/stock', '/contact']), '/shortcut', ASK_WORD];
      return onceExitCode(options.once, outcome, shown, commands);
    }
    if (!options.banner?.length) {
      output.write('Type help for what you can do here, Ctrl-D to leave.\n');
    }
    return await runRepl({
      input: options.input ?? process.stdin,
      output,
      screen,
      session,
      logger: options.logger,
      historyFile: options.historyFile ?? defaultHistoryFile(),
    });
  } finally {
    await app?.stop();
    await server.stop();
    await flush(output);
  }
}
