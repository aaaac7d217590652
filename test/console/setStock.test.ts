/**
 * `set-stock` in the console, with the real app on the built-in sandbox ERP and watches in
 * memory: a new user sets a watch, moves the sandbox's stock, and sees the alert at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAppFor, createServices, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import type { ConsoleOptions } from '../../src/console/index.js';
import { createLogger } from '../../src/log/logger.js';
import { sandboxStockSetter } from '../../src/watches/sandboxStock.js';
import { consoleSession } from './consoleSession.js';

const logger = createLogger({ level: 'silent' });
let services: Services;

beforeAll(async () => {
  services = await createServices(loadConfig({}), logger);
});
afterAll(async () => {
  await services?.close();
});

function session(lines: string[], extra: Partial<ConsoleOptions> = {}) {
  const sandbox = services.sandbox;
  if (!sandbox) throw new Error('the console tests need the built-in sandbox');
  return consoleSession(lines, {
    buildApp: (transport) => consoleAppFor(services, transport),
    color: false,
    logger,
    historyFile: false,
    timing: { quietMs: 150, lateAnswerMs: 500, timeoutMs: 20_000 },
    setStock: sandboxStockSetter(sandbox.data, services.watches.checker),
    ...extra,
  });
}

describe('set-stock in the console', () => {
  it('is in help, and moves the stock of a watched item so its alert shows at once', async () => {
    const { code, text } = await session([
      'help',
      'set-stock WIDGET-9 40',
      '/stock watch WIDGET-9 below 10',
      'set-stock WIDGET-9 4',
    ]);
    expect(code).toBe(0);
    expect(text).toContain('set-stock CODE N [BRANCH]');
    expect(text).toContain('No watch is on WIDGET-9');
    expect(text).toContain('Watch set on WIDGET-9');
    const afterMove = text.slice(text.indexOf('available company-wide is now 4 (was 40)'));
    expect(afterMove).not.toBe(text);
    expect(afterMove).toMatch(/Available:?\s*4/);
    expect(afterMove).not.toContain('nothing crossed');
  });

  it('says when nothing crossed, and matches branches as the watch commands do', async () => {
    // The console's store outlives a session: the watch the test above left on this key is
    // removed first (a second one would ask before replacing it).
    const { text } = await session([
      '/stock unwatch WIDGET-9',
      '/stock watch WIDGET-9 below 10',
      'set-stock WIDGET-9 30 per',
    ]);
    expect(text).toMatch(/available at Perth is now 30 \(was -?\d+\)/);
    expect(text).toContain('nothing crossed a threshold');
  });

  it('explains itself on a bad line, an unknown item or branch, and without the sandbox', async () => {
    const { text } = await session([
      'set-stock WIDGET-9',
      'set-stock WIDGET-9 -3',
      'set-stock NOPE-404 5',
      'set-stock WIDGET-9 5 atlantis',
    ]);
    expect(text.match(/Usage: set-stock CODE QUANTITY \[BRANCH\]/g)).toHaveLength(2);
    expect(text).toContain('The sandbox has no item NOPE-404.');
    expect(text).toMatch(/WIDGET-9 has no branch "atlantis"\. Its branches: [^\n]*Perth/);
    const real = await session(['set-stock WIDGET-9 5'], { setStock: undefined });
    expect(real.text).toContain('uses a real ERP');
  });
});

describe('"Tell me when it\'s Yes" on a No', () => {
  it('makes a one-shot watch here that answers once when the stock arrives, then is gone', async () => {
    const { text } = await session([
      '/stock WIDGET-9 500 sydney',
      // The verdict's own button comes first on the card.
      '1',
      'set-stock WIDGET-9 600 sydney',
      'set-stock WIDGET-9 10 sydney',
      'set-stock WIDGET-9 700 sydney',
      '/stock watches',
    ]);
    expect(text).toMatch(/❌ No: Sydney has \d+ free.*\[1\] Tell me when it's Yes/);
    // The console wraps lines to 80 columns.
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(
      "I'll tell you here once when 500 of `WIDGET-9` can be supplied from Sydney",
    );
    expect(flat).toContain("Done: I'll tell you once, in this conversation, when 500 of WIDGET-9");
    expect(flat.match(/Now yes: 500 of WIDGET-9 can be supplied from Sydney: \d+ free/g)).toEqual([
      'Now yes: 500 of WIDGET-9 can be supplied from Sydney: 600 free',
    ]);
    expect(flat).not.toContain('changes are told in this thread');
    // The verdict card stays as it was: the press answered beside it.
    expect(flat).not.toContain('message updated');
    // The other tests' watches stay; the one-shot one is gone.
    const list = text.slice(text.lastIndexOf('> /stock watches'));
    expect(list).not.toContain('500');
  });
});
