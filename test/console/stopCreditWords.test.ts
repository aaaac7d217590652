/**
 * "is ACME01 on stop credit?" at the console's words prompt on the built-in sandbox: the
 * answer leads with the stop-credit line (Yes or No) for the asker; the channel's thread sees
 * the account only, since stop credit is an account term and SHARE_ACCOUNT_TERMS is off.
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

const run = (lines: string[]) =>
  consoleSession(lines, {
    buildApp: (transport) => consoleAppFor(services, transport),
    color: false,
    logger,
    historyFile: false,
    timing: { quietMs: 150, lateAnswerMs: 500, timeoutMs: 20_000 },
  });

describe('stop credit in words', () => {
  it('leads with the line, Yes or No', async () => {
    const { text } = await run(['/ask is ACME01 on stop credit?', '/ask is acmewh01 on stop?']);
    expect(text).toContain('ACME01` is not on stop credit');
    expect(text).toContain('ACMEWH01` is on stop credit');
  });
});
