/**
 * `/stock demand` through the real app on the sandbox ERP: the counts match the No answers
 * given (a Yes adds nothing), most asked first.
 */
import { describe, expect, it } from 'vitest';
import { sandboxConsole } from './consoleSession.js';

const session = sandboxConsole();

describe('/stock demand', () => {
  it('counts the No answers by item and branch, most asked first', async () => {
    const empty = await session(['/stock demand']);
    expect(empty.text).toContain('Unmet demand, last 7 days: no “No” answers.');
    const { code, text } = await session([
      '/stock WIDGET-9 40 sydney',
      '/stock WIDGET-9 41 sydney',
      '/stock WIDGET-9 60',
      '/stock WIDGET-9 5',
      '/stock demand',
    ]);
    expect(code).toBe(0);
    const answer = text.slice(text.lastIndexOf('Unmet demand'));
    expect(answer).toContain('WIDGET-9` at Sydney · 2 “No”s\n');
    expect(answer).toContain('WIDGET-9` company-wide · 1 “No”\n');
    expect(answer.indexOf('at Sydney')).toBeLessThan(answer.indexOf('company-wide'));
    expect(answer).toContain('never who asked or where');
  });
});
