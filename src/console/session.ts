/**
 * What one typed line does: run a slash command, press a numbered button, or one of the
 * console's own words (help, json, link, quit). Each command and click goes through the
 * receiver into the App, then the session waits until the app has gone quiet.
 */
import type { StockSetOutcome, StockSetting } from '../watches/sandboxStock.js';
import type { ActivityTracker } from './activity.js';
import type { Board } from './board.js';
import { blockKitBuilderUrl, blocksForBuilder } from './builderLink.js';
import { RespondPayload } from './fakeSlack.js';
import { escapeMentions } from './identity.js';
import {
  blockActionsBody,
  directMessageBody,
  messageActionBody,
  slashCommandBody,
} from './payloads.js';
import type { ConsoleReceiver, Dispatch } from './receiver.js';
import { createStyler } from './style.js';

export interface SessionTiming {
  /** How long the app must stay silent, with nothing in flight, before an answer is complete. */
  quietMs: number;
  /** With nothing shown yet, how long to wait for a late answer once processing is done. */
  lateAnswerMs: number;
  /** Overall bound on waiting for one command or click. */
  timeoutMs: number;
}

export const DEFAULT_TIMING: SessionTiming = {
  quietMs: 500,
  lateAnswerMs: 3000,
  timeoutMs: 60_000,
};

export interface SessionOptions {
  receiver: ConsoleReceiver;
  board: Board;
  activity: ActivityTracker;
  responseUrl: (key: string) => string;
  /** For the console's own words (help, errors); messages from the app go through the board. */
  write: (text: string) => void;
  color: boolean;
  commands: readonly string[];
  /** The app's message shortcut, for `/shortcut <message text>`; none: the word is refused. */
  messageShortcut?: MessageShortcut;
  timing: SessionTiming;
  /**
   * `set-stock CODE QUANTITY [BRANCH]`: sets a sandbox item's available stock and checks its
   * watches at once. Absent when the ERP is not the built-in sandbox: the word then says so.
   */
  setStock?: (setting: StockSetting) => Promise<StockSetOutcome>;
}

export interface MessageShortcut {
  callbackId: string;
  /** As Slack shows it in a message's menu, e.g. "Look up stock". */
  name: string;
}

/** `/shortcut <message text>`: the message shortcut used on a message with that text. */
const SHORTCUT_WORD = '/shortcut';

/** `/ask have we got 50 WIDGET-9 in perth?`: a sentence, as a direct message to the app. */
export const ASK_WORD = '/ask';

/** `set-stock WIDGET-9 5 perth`: the sandbox's stock moved, so a watch can be seen to fire. */
const SET_STOCK_WORD = 'set-stock';

const SET_STOCK_USAGE = `Usage: ${SET_STOCK_WORD} CODE QUANTITY [BRANCH], e.g. ${SET_STOCK_WORD} WIDGET-9 5 perth`;

/** `quit` ends the session; `failed` means the line did not get a proper answer. */
export type LineOutcome = 'ok' | 'failed' | 'quit';

export function helpText(commands: readonly string[], shortcut?: MessageShortcut): string {
  const examples = commands.map((command) => `  ${command} …`).join('\n');
  const shortcutLines = shortcut
    ? [
        `  ${SHORTCUT_WORD} <message text>   the message shortcut "${shortcut.name}" on that text`,
        `            e.g. ${SHORTCUT_WORD} Can you check WIDGET-9 and FST-M8-25?`,
      ]
    : [];
  return [
    'Type commands as you would in Slack (the slash is optional):',
    examples,
    '  e.g. /stock WIDGET-9   /stock blue widget   /contact acme   /stock help',
    `  ${ASK_WORD} <sentence>   ask in words, as a direct message to the app`,
    `            e.g. ${ASK_WORD} have we got 50 WIDGET-9 in perth?`,
    ...shortcutLines,
    'Other words:',
    '  1, 2, …   press that button of the latest message with buttons',
    '  fill N VALUE, submit, cancel   fill in field N of an open modal, send it, close it',
    '  json      print the latest message as Block Kit JSON',
    '  link      print a Block Kit Builder link for the latest message',
    `  ${SET_STOCK_WORD} CODE N [BRANCH]   make the sandbox's available stock N, then check watches now`,
    `            e.g. /stock watch WIDGET-9 below 10, then ${SET_STOCK_WORD} WIDGET-9 5`,
    '  help      this text',
    '  quit      leave (Ctrl-D works too)',
    '',
  ].join('\n');
}

export class ConsoleSession {
  constructor(private readonly options: SessionOptions) {}

  async runLine(raw: string): Promise<LineOutcome> {
    const line = raw.trim();
    if (line === '') return 'ok';
    const word = line.toLowerCase();
    if (word === 'quit' || word === 'exit') return 'quit';
    if (word === 'help' || word === '?') {
      return this.say(helpText(this.options.commands, this.options.messageShortcut));
    }
    if (word === SHORTCUT_WORD || word.startsWith(`${SHORTCUT_WORD} `)) {
      return this.runShortcut(line.slice(SHORTCUT_WORD.length).trim());
    }
    if (word === ASK_WORD || word.startsWith(`${ASK_WORD} `)) {
      return this.ask(line.slice(ASK_WORD.length).trim());
    }
    if (word === SET_STOCK_WORD || word.startsWith(`${SET_STOCK_WORD} `)) {
      return this.setStock(line.slice(SET_STOCK_WORD.length).trim());
    }
    if (word === 'submit' || word === 'cancel' || word.startsWith('fill ')) {
      return this.modalWord(line);
    }
    if (word === 'json') return this.printJson();
    if (word === 'link') return this.printLink();
    if (/^\d+$/.test(line)) return this.press(Number(line));
    const command = this.parseCommand(line);
    if (command === undefined) {
      return this.fail(
        `Not a command: "${line.slice(0, 80)}". Type help for what works here, or ${ASK_WORD} … to ask in words.`,
      );
    }
    if (!this.options.commands.includes(command.name)) {
      return this.fail(
        `${command.name} is not a command of this app. Try ${this.options.commands.join(' or ')}.`,
      );
    }
    return this.runCommand(command.name, command.text);
  }

  /** `/stock WIDGET-9`, or `stock WIDGET-9` without the slash. */
  private parseCommand(line: string): { name: string; text: string } | undefined {
    const match = /^(\/?)([a-z][\w-]*)(?:\s+([\s\S]*))?$/i.exec(line);
    if (!match?.[2]) return undefined;
    const name = `/${match[2].toLowerCase()}`;
    if (match[1] === '' && !this.options.commands.includes(name)) return undefined;
    return { name, text: (match[3] ?? '').trim() };
  }

  private async runCommand(name: string, text: string): Promise<LineOutcome> {
    const key = this.options.board.newResponseUrlKey();
    const body = slashCommandBody(name, escapeMentions(text), this.options.responseUrl(key));
    return this.dispatchAndWait(body, 'command');
  }

  private async runShortcut(text: string): Promise<LineOutcome> {
    const shortcut = this.options.messageShortcut;
    if (!shortcut) return this.fail('This app has no message shortcut.');
    if (text === '') {
      return this.fail(
        `Type the message after ${SHORTCUT_WORD}, e.g. ${SHORTCUT_WORD} Can you check WIDGET-9?`,
      );
    }
    const key = this.options.board.newResponseUrlKey();
    const body = messageActionBody(shortcut.callbackId, text, this.options.responseUrl(key));
    return this.dispatchAndWait(body, 'shortcut');
  }

  private async ask(text: string): Promise<LineOutcome> {
    if (text === '') {
      return this.fail(
        `Type the sentence after ${ASK_WORD}, e.g. ${ASK_WORD} have we got 50 WIDGET-9?`,
      );
    }
    return this.dispatchAndWait(directMessageBody(text), 'shortcut');
  }

  private async press(number: number): Promise<LineOutcome> {
    const message = this.options.board.lastWithButtons();
    if (!message) return this.fail('There are no buttons to press yet.');
    const button = message.buttons[number - 1];
    if (!button) {
      return this.fail(
        `There is no button ${number}: the latest message has buttons 1 to ${message.buttons.length}.`,
      );
    }
    const key = this.options.board.newResponseUrlKey(message.ts);
    const body = blockActionsBody(
      {
        actionId: button.actionId,
        // Slack fills in a block_id when the app leaves it out.
        blockId: button.blockId ?? `console-${button.number}`,
        label: button.label,
        ...(button.value === undefined ? {} : { value: button.value }),
      },
      message,
      this.options.responseUrl(key),
    );
    return this.dispatchAndWait(body, 'click');
  }

  /** `fill N VALUE`, `submit` and `cancel` on the open modal (see modal.ts). */
  private async modalWord(line: string): Promise<LineOutcome> {
    const modals = this.options.board.modals;
    if (!modals.isOpen) return this.fail('No modal is open.');
    const word = line.toLowerCase();
    if (word === 'cancel') {
      modals.close();
      return this.say('Modal closed.');
    }
    if (word === 'submit') {
      // As in Slack: a required field left empty is refused before the app hears of it.
      const missing = modals.missing();
      if (missing !== undefined) return this.fail(missing);
      const body = modals.submission();
      if (!body) return this.fail('No modal is open.');
      return this.dispatchAndWait(body, 'click', (ack) => {
        if (modals.acknowledged(ack) === 'closed') this.say('Modal submitted and closed.');
      });
    }
    const match = /^fill\s+(\d+)\s+([\s\S]+)$/i.exec(line);
    if (!match?.[1] || match[2] === undefined)
      return this.fail('Usage: fill N VALUE, e.g. fill 2 10');
    const problem = modals.fill(Number(match[1]), match[2]);
    return problem === undefined ? 'ok' : this.fail(problem);
  }

  /** A command's and a shortcut's answer must show up; a click may rightly change nothing. */
  private async dispatchAndWait(
    body: Record<string, unknown>,
    kind: 'command' | 'click' | 'shortcut',
    onAck?: (body: unknown) => void,
  ): Promise<LineOutcome> {
    const isCommand = kind === 'command';
    const { board, activity, timing } = this.options;
    const shownBefore = board.shownCount;
    let dispatch: Dispatch;
    try {
      dispatch = this.options.receiver.dispatch(body);
    } catch (error) {
      return this.fail(`The app could not take the request: ${describe(error)}`);
    }
    const ack = await dispatch.ack;
    let failed = false;
    if (!ack.acked) {
      failed = true;
      this.say(`The app did not acknowledge in time (Slack would show "operation_timeout").`);
    } else if (onAck) {
      onAck(ack.body);
    } else if (isCommand) {
      // Slack ignores an ack body on clicks; on commands it is the first reply.
      board.showAck(ack.body, (value) => RespondPayload.safeParse(value).data);
    }
    let outcome: Awaited<Dispatch['processed']> | undefined;
    void dispatch.processed.then((result) => {
      outcome = result;
    });
    const settled = await activity.waitUntilQuiet({
      quietMs: timing.quietMs,
      timeoutMs: timing.timeoutMs,
      ready: () =>
        outcome !== undefined &&
        (board.shownCount > shownBefore || activity.quietFor() >= timing.lateAnswerMs),
    });
    if (outcome && !outcome.ok) {
      this.say(`The app failed: ${describe(outcome.error)}`);
      return 'failed';
    }
    if (!settled) return this.fail(`No complete answer within ${timing.timeoutMs / 1000} s.`);
    if (kind !== 'click' && board.shownCount === shownBefore) {
      return this.fail('The app did not answer.');
    }
    return failed ? 'failed' : 'ok';
  }

  private async setStock(args: string): Promise<LineOutcome> {
    const setStock = this.options.setStock;
    if (!setStock) {
      return this.fail(
        `${SET_STOCK_WORD} changes the built-in sandbox ERP's stock; this console uses a real ERP (ERP_BASE_URL), which the app only reads.`,
      );
    }
    const match = /^(\S+)\s+(\d{1,9})(?:\s+(.+))?$/.exec(args);
    if (!match?.[1] || match[2] === undefined) return this.fail(SET_STOCK_USAGE);
    const code = match[1];
    const { board, activity, timing } = this.options;
    const outcome = await setStock({
      code,
      available: Number(match[2]),
      ...(match[3] ? { branch: match[3].trim() } : {}),
    });
    if (!outcome.ok) {
      switch (outcome.reason) {
        case 'unknown_item':
          return this.fail(`The sandbox has no item ${code}.`);
        case 'unknown_branch':
          return this.fail(
            `${code} has no branch "${match[3] ?? ''}". Its branches: ${(outcome.branches ?? []).join(', ')}.`,
          );
        case 'bad_quantity':
          return this.fail(SET_STOCK_USAGE);
      }
    }
    const where = outcome.branch === undefined ? 'company-wide' : `at ${outcome.branch}`;
    this.say(
      `${outcome.code}: available ${where} is now ${outcome.after} (was ${outcome.before}), in the sandbox.`,
    );
    const shownBefore = board.shownCount;
    let watched: boolean;
    try {
      watched = await outcome.checkWatches();
    } catch (error) {
      return this.fail(`Its watches could not be checked: ${describe(error)}`);
    }
    if (!watched) {
      return this.say(
        `No watch is on ${outcome.code}. Set one, e.g. /stock watch ${outcome.code} below ${Math.max(1, outcome.after)}, then ${SET_STOCK_WORD} again.`,
      );
    }
    // The check has posted what crossed (an alert, an update): let it reach the screen.
    await activity.waitUntilQuiet({ quietMs: timing.quietMs, timeoutMs: timing.timeoutMs });
    if (board.shownCount === shownBefore) {
      return this.say('Its watches were checked: nothing crossed a threshold.');
    }
    return 'ok';
  }

  private printJson(): LineOutcome {
    const message = this.options.board.lastMessage();
    if (!message) return this.fail('No message yet.');
    return this.say(`${JSON.stringify({ text: message.text, blocks: message.blocks }, null, 2)}\n`);
  }

  private printLink(): LineOutcome {
    const message = this.options.board.lastMessage();
    if (!message) return this.fail('No message yet.');
    return this.say(`${blockKitBuilderUrl({ blocks: blocksForBuilder(message) })}\n`);
  }

  private say(text: string): LineOutcome {
    this.options.write(text.endsWith('\n') ? text : `${text}\n`);
    return 'ok';
  }

  private fail(text: string): LineOutcome {
    const styler = createStyler(this.options.color);
    this.options.write(`${styler.dim(text)}\n`);
    return 'failed';
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
