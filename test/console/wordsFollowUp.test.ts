/**
 * A follow-up at the console's words prompt on the built-in sandbox: "and in sydney?" after a
 * question about WIDGET-9 answers that question at Sydney, from the app's own memory of the
 * conversation.
 */
import { describe, expect, it } from 'vitest';
import { sandboxConsole } from './consoleSession.js';

const session = sandboxConsole();

describe('follow-ups in words', () => {
  it('answers "and in sydney?" as the last question at Sydney', async () => {
    const { text } = await session([
      '/ask have we got 50 WIDGET-9 in perth?',
      '/ask and in sydney?',
      '/ask and 30?',
    ]);
    expect(text).toMatch(/No:\s+Perth has 0 free/);
    expect(text).toMatch(/No:\s+Sydney has 37 free/);
    expect(text).toMatch(/Yes:\s+Sydney has 37 free/);
    expect(text).not.toContain('could not read that');
  });
});
