/**
 * The whole app in console mode, as a new user runs it: `npm start` with no Slack
 * variables, against the built-in sandbox ERP, driven through its standard input.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeArgsForSource, repoRoot } from '../helpers/entry.js';

// `help` is answered only after the previous line's answer is complete: a cheap sentinel.
const SENTINEL = 'press that button of the latest message with buttons';

class ConsoleProcess {
  output = '';
  private readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<number | null>;

  constructor() {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) =>
          !/^(SLACK_|ERP_|REDIS_URL$|DATABASE_URL$|DATA_DIR$|WATCH_|NO_COLOR$)/.test(name),
      ),
    );
    this.child = spawn(process.execPath, nodeArgsForSource('src/main.ts'), {
      cwd: repoRoot,
      env,
    });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Sends a line and resolves with what it printed, once its answer is complete. */
  async run(line: string, timeoutMs = 20_000): Promise<string> {
    const start = this.output.length;
    const sentinels = this.output.split(SENTINEL).length;
    this.child.stdin.write(`${line}\nhelp\n`);
    // Re-checked on each chunk of output (this listener runs after the one that appends it).
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (this.output.split(SENTINEL).length <= sentinels) return;
        clearTimeout(timer);
        this.child.stdout.off('data', check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.child.stdout.off('data', check);
        reject(new Error(`no answer to ${line}:\n${this.output.slice(start)}`));
      }, timeoutMs);
      this.child.stdout.on('data', check);
      check();
    });
    return this.output.slice(start, this.output.lastIndexOf('\n> help'));
  }

  async end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill();
  }
}

/** The number of the button whose label matches, in the latest message printed. */
function buttonNumber(text: string, label: RegExp): string {
  const matches = [...text.matchAll(/\[(\d+)\] ([^[\n]+)/g)].filter((m) => label.test(m[2] ?? ''));
  const number = matches.at(-1)?.[1];
  if (!number) throw new Error(`no button ${label} in:\n${text}`);
  return number;
}

describe('npm start without Slack variables', () => {
  let app: ConsoleProcess;

  beforeAll(() => {
    app = new ConsoleProcess();
  });

  afterAll(() => app.kill());

  it('answers a search and turns its page', async () => {
    const list = await app.run('/stock widget');
    expect(list).toContain('── only visible to you ──');
    expect(list).toMatch(/1–10/);
    const next = await app.run(buttonNumber(list, /^Next/));
    expect(next).toContain('── message updated · only visible to you ──');
    expect(next).toMatch(/11–20/);
  }, 60_000);

  it('drills down into a sub-assembly with Expand', async () => {
    const card = await app.run('stock WIDGET-9');
    expect(card).toContain('WIDGET-9` · 42 available');
    const bom = await app.run(buttonNumber(card, /^Bill of materials \(4\)/));
    expect(bom).toContain('message updated');
    const expanded = await app.run(buttonNumber(bom, /^Expand WIDGET-9-CORE/));
    expect(expanded).toContain('message updated');
    expect(expanded).toContain('WIDGET-9-CORE');
    expect(expanded).toMatch(/in \W?WIDGET-9\W/);
  }, 60_000);

  it('reveals a contact’s details to the asking user only', async () => {
    const card = await app.run('/contact ACME01');
    expect(card).toContain('Acme Industrial Supplies');
    expect(card).toContain('•••');
    const revealed = await app.run(buttonNumber(card, /Reveal/));
    expect(revealed).toContain('── only visible to you ──');
    expect(revealed).not.toContain('shared to channel');
    // Unredacted: a full e-mail address appears.
    expect(revealed).toMatch(/[a-z]+@acme[a-z]*\.com\.au/);
  }, 60_000);

  it('leaves with exit code 0 when the input ends', async () => {
    expect(await app.end()).toBe(0);
  }, 30_000);
});
