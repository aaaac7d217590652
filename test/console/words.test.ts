/**
 * Asking in words at the console's prompt (`/ask …`) and with `--once "…" --words`: the real
 * app on the built-in sandbox ERP, answering a sentence as a direct message would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAppFor, createServices, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import type { ConsoleOptions } from '../../src/console/index.js';
import { createLogger } from '../../src/log/logger.js';
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
  return consoleSession(lines, {
    buildApp: (transport) => consoleAppFor(services, transport),
    color: false,
    logger,
    historyFile: false,
    timing: { quietMs: 150, lateAnswerMs: 500, timeoutMs: 20_000 },
    ...extra,
  });
}

describe('asking in words at the console', () => {
  it('answers a sentence typed after /ask, and says how in its help', async () => {
    const { code, text } = await session(['help', '/ask have we got 50 WIDGET-9 in perth?']);
    expect(code).toBe(0);
    expect(text).toContain('/ask <sentence>');
    expect(text).toMatch(/No:\s+Perth has 0 free \(2 over-allocated\)/);
  });

  it('exits 0 for an answer with a record and 1 for a sentence it cannot read', async () => {
    const answered = await session([], { once: '/ask who does accounts at ACME01' });
    expect(answered.code).toBe(0);
    expect(answered.text).toContain('Accounts Payable');
    const unread = await session([], { once: '/ask zxqv plorp' });
    expect(unread.code).toBe(1);
    expect(unread.text).toContain('For example');
  });

  it('asks for the sentence when /ask has none', async () => {
    const { text } = await session(['/ask']);
    expect(text).toContain('Type the sentence after /ask');
  });
});
