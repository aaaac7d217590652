/**
 * The bill of materials behind "Bill of materials (N)" is a page of the card: it fits one
 * phone screen too (test/helpers/phoneLines.ts), pages through every component, keeps "Back".
 */
import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/erp/schemas.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { itemCard } from '../../src/views/itemCard.js';
import { BOM_PAGE_SIZE } from '../../src/views/itemParts.js';
import { makeFreshness, TEST_NOW } from '../helpers/builders.js';
import { PHONE_SCREEN, phoneFit } from '../helpers/phoneLines.js';
import { items, itemsByCode } from './helpers/sweepData.js';

const base = { freshness: makeFreshness(), now: TEST_NOW, sandbox: true, internalFigures: true };

function bomPage(item: Item, bomPage: number, extra: Record<string, unknown> = {}) {
  return itemCard({ ...base, item, part: 'bom', bomPage, ...extra });
}

const plant = itemsByCode.get('PLANT-88') as Item;

describe('the bill of materials page fits one phone screen', () => {
  it('every page of PLANT-88, private and shared, within 20 lines and Block Kit limits', () => {
    const pages = Math.ceil(plant.bom.length / BOM_PAGE_SIZE);
    for (let page = 0; page < pages; page += 1) {
      for (const extra of [{}, { shared: true }, { internalFigures: false }]) {
        const message = bomPage(plant, page, extra);
        const fit = phoneFit(message);
        expect(checkMessageLimits(message)).toEqual([]);
        expect(fit.count, `page ${page}\n${fit.lines.join('\n')}`).toBeLessThanOrEqual(
          PHONE_SCREEN,
        );
      }
    }
  });

  it('every page of every sandbox BOM, drilled down two levels and stale, within 20 lines', () => {
    const over: string[] = [];
    for (const item of items.filter((i) => i.bom.length > 0)) {
      for (let page = 0; page < Math.ceil(item.bom.length / BOM_PAGE_SIZE); page += 1) {
        const message = bomPage(item, page, {
          path: ['PLANT-88', 'WIDGET-9'],
          pathPages: [3, 1],
          freshness: makeFreshness({ stale: true, fromCache: true }),
        });
        const fit = phoneFit(message);
        if (checkMessageLimits(message).length > 0) over.push(`${item.code} p${page}: limits`);
        if (fit.count > PHONE_SCREEN) over.push(`${item.code} p${page}: ${fit.count}`);
      }
    }
    expect(over).toEqual([]);
  });

  it('pages through every component once, each page keeping Back', () => {
    const seen: string[] = [];
    for (let page = 0; page < plant.bom.length; page += 1) {
      const message = bomPage(plant, page);
      const text = JSON.stringify(message.blocks);
      expect(text).toContain('Back');
      const codes = plant.bom.map((c) => c.code).filter((code) => text.includes(`\`${code}\``));
      if (page > 0 && codes.every((code) => seen.includes(code))) break;
      seen.push(...codes.filter((code) => !seen.includes(code)));
    }
    expect(new Set(seen).size).toBe(new Set(plant.bom.map((c) => c.code)).size);
  });

  it('every sandbox item with components: its first BOM page within 20 lines', () => {
    const over = items
      .filter((item) => item.bom.length > 0)
      .map((item) => [item.code, phoneFit(bomPage(item, 0)).count] as const)
      .filter(([, count]) => count > PHONE_SCREEN);
    expect(over).toEqual([]);
  });
});
