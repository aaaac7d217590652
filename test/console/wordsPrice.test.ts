/**
 * Price on the built-in sandbox, from a fresh start (the index has crawled nothing): "price of
 * WIDGET-9" answers the sell price first, and `/stock WIDGET-9` typed exactly (getItem, which
 * carries no price) shows the sell price as `/stock widget-9` (a search) does.
 */
import { describe, expect, it } from 'vitest';
import { generateSandboxData } from '../../src/sandbox/data.js';
import { formatMoney } from '../../src/views/format.js';
import { sandboxConsole } from './consoleSession.js';

const widget = generateSandboxData().items.find((item) => item.record.code === 'WIDGET-9');
const price = formatMoney(widget?.price ?? Number.NaN);
const run = sandboxConsole();

describe('the sell price', () => {
  it('answers "price of WIDGET-9" with the sell price first', async () => {
    expect(run.services().catalogue.known('WIDGET-9')?.price).toBeUndefined();
    const { text } = await run(['/ask price of WIDGET-9', '/ask how much is FST-M8-25']);
    expect(text).toContain(`\`WIDGET-9\` sells for ${price}`);
    expect(text).toMatch(/FST-M8-25` sells for \d/);
    expect(text).not.toContain('could not read that');
  });

  it('shows it on the card of an exact code the index did not know', async () => {
    const { text } = await run(['/stock PLANT-88']);
    const plant = generateSandboxData().items.find((item) => item.record.code === 'PLANT-88');
    expect(text).toContain(`Sell ${formatMoney(plant?.price ?? Number.NaN)}`);
  });
});
