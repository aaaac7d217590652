/**
 * The interactive loop: a prompt, readline's line editing and history (kept in
 * ~/.erp-lookups-history when the console runs in a terminal), and output that arrives while
 * the prompt is showing redrawn above it.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import type { AppLogger } from '../log/logger.js';
import type { ConsoleSession } from './session.js';

const HISTORY_SIZE = 500;

export function defaultHistoryFile(): string {
  return join(homedir(), '.erp-lookups-history');
}

/** Writes to the terminal; when the prompt is up, prints above it and redraws it. */
export class Screen {
  private rl: Interface | undefined;
  private prompting = false;

  constructor(private readonly output: NodeJS.WritableStream & { isTTY?: boolean }) {}

  readonly write = (text: string): void => {
    if (this.rl && this.prompting) {
      clearLine(this.output, 0);
      cursorTo(this.output, 0);
      this.output.write(text);
      this.rl.prompt(true);
      return;
    }
    this.output.write(text);
  };

  attach(rl: Interface): void {
    this.rl = rl;
  }

  showPrompt(): void {
    if (!this.rl) return;
    this.prompting = true;
    this.rl.prompt();
  }

  hidePrompt(): void {
    this.prompting = false;
  }
}

function loadHistory(file: string): string[] {
  try {
    // readline keeps the newest entry first; the file keeps the oldest first, like a shell's.
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(-HISTORY_SIZE).reverse();
  } catch {
    return [];
  }
}

interface ReplOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { isTTY?: boolean };
  screen: Screen;
  session: ConsoleSession;
  logger: AppLogger;
  /** `false`: keep no history on disk. Only used when the console runs in a terminal. */
  historyFile: string | false;
}

/** Runs until the input ends (Ctrl-D) or the user types quit; resolves with the exit code. */
export async function runRepl(options: ReplOptions): Promise<number> {
  const { input, output, screen, session } = options;
  const terminal = Boolean((input as { isTTY?: boolean }).isTTY && output.isTTY);
  const historyFile = terminal && options.historyFile !== false ? options.historyFile : undefined;
  const rl = createInterface({
    input,
    ...(terminal ? { output } : {}),
    terminal,
    prompt: 'erp> ',
    historySize: HISTORY_SIZE,
    history: historyFile ? loadHistory(historyFile) : [],
  });
  if (historyFile) {
    rl.on('history', (history: string[]) => {
      const text = `${[...history].reverse().join('\n')}\n`;
      writeFile(historyFile, text, { mode: 0o600 }).catch((error: unknown) => {
        options.logger.debug({ err: error }, 'console: could not save the history');
      });
    });
  }
  // Ctrl-C leaves like Ctrl-D rather than leaving a paused, unresponsive prompt.
  rl.on('SIGINT', () => rl.close());
  if (terminal) {
    screen.attach(rl);
    screen.showPrompt();
  }
  for await (const line of rl) {
    screen.hidePrompt();
    // Piped input is not echoed by a terminal: echo it so the transcript reads like a session.
    if (!terminal && line.trim() !== '') output.write(`\n> ${line.trim()}\n`);
    const outcome = await session.runLine(line);
    if (outcome === 'quit') break;
    if (terminal) screen.showPrompt();
  }
  screen.hidePrompt();
  rl.close();
  return 0;
}
