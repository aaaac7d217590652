/**
 * Watches asked about in words at the console on the built-in sandbox: "stop watching X"
 * offers a confirmed Remove (or says there is none) and removes nothing itself; "what are we
 * watching?" lists this conversation's watches.
 */
import { describe, expect, it } from 'vitest';
import { sandboxConsole } from './consoleSession.js';

const session = sandboxConsole();

const once = (line: string) => session([], { once: line });

describe('watches in words', () => {
  it('lists, offers to stop with a confirm, and says when there is none', async () => {
    expect((await once('/ask what are we watching?')).text).toContain('No watches');
    await once('/stock watch WIDGET-9 below 10 at perth');
    const offer = await once('/ask stop watching WIDGET-9');
    expect(offer.text).toContain('Stop watching?');
    expect(offer.text).toMatch(/WIDGET-9 at Perth .*Remove/);
    // Offered, not removed: the list still has it.
    expect((await once('/ask what are my watches')).text).toMatch(/1 watch in this channel/);
    expect((await once('/ask stop watching PLANT-88')).text).toContain('There is no watch on');
  });
});
