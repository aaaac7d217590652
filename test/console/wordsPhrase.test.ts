/**
 * Words that qualify an item, at the console on the built-in sandbox from a fresh start (the
 * catalogue index empty): `/stock widget-9 bracket` and "is the widget-9 bracket in stock"
 * answer the bracket (WIDGET-9-BRACKET, none available), never WIDGET-9 (42 in Sydney).
 */
import { describe, expect, it } from 'vitest';
import type { ConsoleOptions } from '../../src/console/index.js';
import { sandboxConsole } from './consoleSession.js';

const session = sandboxConsole();

const once = (line: string, extra: Partial<ConsoleOptions> = {}) =>
  session([], { once: line, ...extra });

describe('words that qualify an item', () => {
  it('answers the bracket for /stock widget-9 bracket', async () => {
    const { text } = await once('/stock widget-9 bracket');
    expect(text).toContain('WIDGET-9-BRACKET');
    expect(text).not.toMatch(/not a branch/i);
  });

  it('answers the bracket for a sentence naming it', async () => {
    const { text } = await once('/ask is the widget-9 bracket in stock');
    expect(text).toContain('WIDGET-9-BRACKET');
  });

  it('asks back naming the phrase when nothing matches it', async () => {
    const { text } = await once('/stock WIDGET-9 flange');
    expect(text).toMatch(/WIDGET-9 flange/);
    expect(text).toMatch(/Did you mean/);
  });

  it('still answers a branch after the code', async () => {
    const { text } = await once('/stock WIDGET-9 50 perth');
    expect(text).toMatch(/Perth/);
    expect(text).not.toContain('WIDGET-9-');
  });

  it('reads a decimal quantity of cable as a quantity', async () => {
    const { text } = await once('/stock CBL-W9 2.5');
    expect(text).not.toMatch(/not a branch/i);
    expect(text).toMatch(/Yes: .* free company-wide/);
  });

  it("answers several items each with its own quantity at the question's branch", async () => {
    const { text } = await once('/ask can we do 20 FST-M8-25 and 5 WIDGET-9 from brisbane?');
    expect(text).toMatch(/No, 20 of FST-M8-25 at Brisbane/);
    expect(text).toMatch(/Yes, 5 of WIDGET-9 at Brisbane/);
  });

  it('retries plural words singular when the plural finds nothing', async () => {
    const widgets = await once('/stock blue widgets');
    expect(widgets.text).not.toContain('No items match');
    expect(widgets.text).toMatch(/WIDGET-9/);
    const bolts = await once('/stock bolts m8');
    expect(bolts.text).not.toContain('No items match');
    expect(bolts.text).toMatch(/FST-/);
  });

  it('reads a sentence typed after /stock as the sentence: several items, a code in pieces', async () => {
    const several = await once('/stock can we do 20 FST-M8-25 and 5 WIDGET-9 from brisbane?');
    expect(several.text).toMatch(/No, 20 of FST-M8-25 at Brisbane/);
    expect(several.text).toMatch(/Yes, 5 of WIDGET-9 at Brisbane/);
    // `widget 9` is WIDGET-9 once the index knows it: the 9 is no quantity.
    const pieces = await once('/stock widget 9 sydney');
    expect(pieces.text).toMatch(/Sydney has \d+ free/);
    expect(pieces.text).not.toMatch(/ 9 of /);
  });
});
