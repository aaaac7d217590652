/**
 * A follow-up at the console's words prompt on the built-in sandbox: "and in sydney?" after a
 * question about WIDGET-9 answers that question at Sydney, from the app's own memory of the
 * conversation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleAppFor, createServices, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
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

describe('follow-ups in words', () => {
  it('answers "and in sydney?" as the last question at Sydney', async () => {
    const { text } = await consoleSession(
      ['/ask have we got 50 WIDGET-9 in perth?', '/ask and in sydney?', '/ask and 30?'],
      {
        buildApp: (transport) => consoleAppFor(services, transport),
        color: false,
        logger,
        historyFile: false,
        timing: { quietMs: 150, lateAnswerMs: 500, timeoutMs: 20_000 },
      },
    );
    expect(text).toMatch(/No:\s+Perth has 0 free/);
    expect(text).toMatch(/No:\s+Sydney has 37 free/);
    expect(text).toMatch(/Yes:\s+Sydney has 37 free/);
    expect(text).not.toContain('could not read that');
  });
});
