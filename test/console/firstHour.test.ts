/**
 * The console as a new user meets it, with the real app on the built-in sandbox ERP: the
 * message shortcut at the prompt, "Sandbox data" on every card and list, lines wrapped to the
 * terminal, and `--json` printing only JSON to stdout (main.test.ts runs `--shortcut` too).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAppFor, createServices, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import type { ConsoleOptions } from '../../src/console/index.js';
import { createLogger } from '../../src/log/logger.js';
import { LOOK_UP_STOCK_CALLBACK_ID } from '../../src/slack/listeners/shortcuts/lookUpStock.js';
import { consoleSession } from './consoleSession.js';

const logger = createLogger({ level: 'silent' });
let services: Services;

beforeAll(async () => {
  services = await createServices(loadConfig({}), logger);
});
afterAll(async () => {
  await services?.close();
});

function session(lines: string[], extra: Partial<ConsoleOptions> = {}, columns?: number) {
  return consoleSession(
    lines,
    {
      buildApp: (transport) => consoleAppFor(services, transport),
      color: false,
      logger,
      historyFile: false,
      messageShortcut: { callbackId: LOOK_UP_STOCK_CALLBACK_ID, name: 'Look up stock' },
      timing: { quietMs: 150, lateAnswerMs: 500, timeoutMs: 20_000 },
      ...extra,
    },
    columns,
  );
}

describe('the console on the sandbox', () => {
  it('runs the message shortcut on a typed message, and says how in its help', async () => {
    const { code, text } = await session([
      'help',
      '/shortcut Can you check *WIDGET-9* and NOPE-404 for <@U123> today?',
    ]);
    expect(code).toBe(0);
    expect(text).toContain('/shortcut <message text>');
    expect(text).toContain('From the message shortcut Look up stock');
    expect(text).toMatch(/`WIDGET-9` Blue Steel Widget[^\n]*\[1\] View/);
    expect(text).toContain('Not found: `NOPE-404`');
  });

  it('shows the verdict forms: the answer first, then the card with the branch asked', async () => {
    const { code, text } = await session(['/stock WIDGET-9 50 perth', '/stock WIDGET-9 5']);
    expect(code).toBe(0);
    expect(text).toMatch(/No:\s+Perth has 0 free \(2 over-allocated\)/);
    expect(text).toMatch(/Yes:\s+42 free company-wide/);
    expect(text).toMatch(/Perth · 2 over-allocated · 10 on order/);
  });

  it('refuses a shortcut without text, with the way to do it', async () => {
    const { text } = await session(['/shortcut']);
    expect(text).toContain('Type the message after /shortcut');
  });

  it('says "Sandbox data" on every card and list', async () => {
    const { text } = await session([
      '/stock WIDGET-9',
      '/stock blue widget',
      '/contact ACME01',
      '/contact acme',
      '/shortcut WIDGET-9',
    ]);
    // Cards say it in a word (what it means is in help); lists say it in full.
    expect(text.match(/🧪\s+Sandbox\s+data/g)).toHaveLength(5);
  });

  it('wraps long lines to the terminal’s width', async () => {
    for (const columns of [50, 120]) {
      // --once: the prompt itself is not drawn on a pretend terminal.
      const card = await session([], { once: '/stock WIDGET-9' }, columns);
      const contact = await session([], { once: '/contact BIGCO01' }, columns);
      const text = `${card.text}\n${contact.text}`;
      const lines = text.split('\n');
      const widest = Math.max(...lines.map((line) => [...line].length));
      expect(widest).toBeLessThanOrEqual(columns);
      if (columns === 120) expect(widest).toBeGreaterThan(50);
    }
  });

  it('with --once and --json, writes only JSON to stdout', async () => {
    const { code, text, errors } = await session([], {
      once: '/shortcut Is WIDGET-9 in?',
      json: true,
    });
    expect(code).toBe(0);
    expect(errors).not.toContain('{"text"');
    const documents = text.trim().split(/\n(?=\{)/);
    const parsed = documents.map((doc) => JSON.parse(doc) as { text: string; blocks: unknown[] });
    expect(parsed.at(-1)?.text).toContain('WIDGET-9');
  });
});

describe('--once on watches and the digest, as a script reads the exit code', () => {
  it('turning off a digest the channel does not have is done (0), with the same words', async () => {
    const { code, text } = await session([], { once: '/stock digest off' });
    expect(text).toContain('This channel had no daily digest');
    expect(code).toBe(0);
  });

  it('the digest setting, even none, is an answer (0)', async () => {
    const { code, text } = await session([], { once: '/stock digest' });
    expect(text).toContain('This channel has no daily digest');
    expect(code).toBe(0);
  });

  it('removing a watch that is not there stays "nothing found" (1): the code may be mistyped', async () => {
    const { code, text } = await session([], { once: '/stock unwatch WIDGET-9' });
    expect(text).toContain('That watch no longer exists');
    expect(code).toBe(1);
  });
});
