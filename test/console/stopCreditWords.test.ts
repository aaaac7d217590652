/**
 * "is ACME01 on stop credit?" at the console's words prompt on the built-in sandbox: the
 * answer leads with the stop-credit line (Yes or No) for the asker; the channel's thread sees
 * the account only, since stop credit is an account term and SHARE_ACCOUNT_TERMS is off.
 */
import { describe, expect, it } from 'vitest';
import { sandboxConsole } from './consoleSession.js';

const run = sandboxConsole();

describe('stop credit in words', () => {
  it('leads with the line, Yes or No', async () => {
    const { text } = await run(['/ask is ACME01 on stop credit?', '/ask is acmewh01 on stop?']);
    expect(text).toContain('ACME01` is not on stop credit');
    expect(text).toContain('ACMEWH01` is on stop credit');
  });
});
