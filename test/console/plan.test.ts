/**
 * The plan after a No through the real app on the sandbox ERP: `/stock WIDGET-9 40 sydney` is a
 * No with a split under it, and its View answers with the split as a verdict card.
 */
import { describe, expect, it } from 'vitest';
import { sandboxConsole } from './consoleSession.js';

const session = sandboxConsole();

/** The number the console gives the View button on the option line that starts with `start`. */
function optionButton(text: string, start: string): string {
  const line = text.split('\n').find((l) => l.startsWith(`• ${start}`));
  const number = /\[(\d+)\] View/.exec(line ?? '')?.[1];
  if (!number) throw new Error(`no "${start}" option with a View button:\n${text}`);
  return number;
}

describe('options after a No', () => {
  it('a No at Sydney offers the split and what is on order; the split answers as a Yes', async () => {
    const first = await session(['/stock WIDGET-9 40 sydney']);
    expect(first.text).toContain('❌ No: Sydney has 37 free, 20 on order with no date');
    expect(first.text).toContain('• Split: 37 Sydney + 3 Brisbane');
    expect(first.text).toContain('• 37 now; 20 on order, no date');
    const split = optionButton(first.text, 'Split:');
    const { code, text } = await session(['/stock WIDGET-9 40 sydney', split]);
    expect(code).toBe(0);
    const answer = text.slice(text.lastIndexOf('only visible to you'));
    expect(answer).toContain('✅ Yes, as a split: 37 Sydney + 3 Brisbane');
    expect(answer).toContain('Sydney has 37 free · Brisbane has 7 free');
  });

  it('a company-wide Yes no branch fills alone says it ships from two places', async () => {
    const { text } = await session(['/stock WIDGET-9 40']);
    expect(text).toContain('✅ Yes: 42 free company-wide');
    expect(text).toContain('• Split: 37 Sydney + 3 Brisbane');
  });

  it('a company-wide No: free now beside on order, never counted as available', async () => {
    const { text } = await session(['/stock WIDGET-9 60']);
    expect(text).toContain('❌ No: 42 free company-wide');
    expect(text).toContain('• 42 now; 42 on order, no date');
    expect(text).not.toContain('Split:');
  });
});

describe('the build check', () => {
  it('WIDGET-9: yes company-wide with how many it is enough for', async () => {
    const { code, text } = await session(['/stock WIDGET-9 build 10']);
    expect(code).toBe(0);
    expect(text).toMatch(/✅ Yes, enough for \d+: 10 of WIDGET-9 from its 4 components/);
  });

  it('at Perth: names each short component, its need, free there and where it is held', async () => {
    const { text } = await session(['/stock WIDGET-9 build 10 at perth']);
    expect(text).toContain('❌ No: short WIDGET-9-CORE (need 10, 0 free at Perth; 88 at Hobart');
    expect(text).toContain('Short FST-M8-25 (need 40, 15 free at Perth;');
  });

  it('an item without a bill of materials says so', async () => {
    const { text } = await session(['/stock WIDGET-9-BRACKET build 2']);
    expect(text).toContain('WIDGET-9-BRACKET has no bill of materials to build from.');
  });
});

describe('the build check with --once', () => {
  it('exits 0 with the answer, Yes or No, as README teaches it', async () => {
    const yes = await session([], { once: '/stock WIDGET-9 build 10' });
    expect(yes.text).toMatch(/Yes, enough for \d+/);
    expect(yes.code).toBe(0);
    const no = await session([], { once: '/stock WIDGET-9 build 10 at perth' });
    expect(no.text).toMatch(/No: short WIDGET-9-CORE/);
    expect(no.code).toBe(0);
  });
});
