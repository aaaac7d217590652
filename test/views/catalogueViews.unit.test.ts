/**
 * The catalogue's views stay inside Slack's limits whatever the catalogue holds: a long
 * categories list, hostile names, long codes in options, and the search modal (App Home: appHome.unit.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { categoriesList, itemOption } from '../../src/views/catalogue.js';
import { readSearchMetadata, searchModal } from '../../src/views/searchModal.js';

const now = new Date('2026-11-23T10:00:00Z');
const summary = {
  items: 2_000,
  complete: true,
  coverage: 1,
  lastFullPassAt: new Date('2026-11-23T09:55:00Z'),
  crawling: false,
};

describe('categoriesList', () => {
  it('stays inside the limits with 400 categories and escapes their names', () => {
    const categories = Array.from({ length: 400 }, (_, i) => ({
      name: i === 0 ? '<!channel> & Co' : `Category number ${i} with a long-ish name`,
      id: i % 3 === 0 ? undefined : i + 1,
      items: i * 7,
    }));
    const message = categoriesList({ categories, summary, now });
    expect(checkMessageLimits(message)).toEqual([]);
    const json = JSON.stringify(message.blocks);
    expect(json).not.toContain('<!channel>');
    expect(json).toContain('&lt;!channel&gt; &amp; Co');
    expect(json).toContain('more categories');
    expect(json).toContain('`category:2`');
  });
});

describe('counts from a catalogue index still filling', () => {
  const filling = { ...summary, complete: false, coverage: 0.3, lastFullPassAt: undefined };
  const categories = [
    { name: 'Bearings', id: 4, items: 0 },
    { name: 'Widgets', id: 2, items: 40 },
  ];

  it('/stock categories says "so far" and never states a count as the size', () => {
    const message = categoriesList({ categories, summary: filling, now });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain('40 so far');
    expect(text).not.toMatch(/40 items/);
    expect(text).not.toMatch(/Bearings[^"]*0 items/);
    expect(text).toContain('still being counted');
    expect(message.text).toContain('Widgets (category:2): 40 so far');
    expect(message.text).not.toMatch(/Bearings \(category:4\): 0/);
    // Complete: the counts are facts, and said as such.
    const complete = categoriesList({ categories, summary, now });
    expect(JSON.stringify(complete.blocks)).toContain('40 items');
    expect(complete.text).toContain('Bearings (category:4): 0');
  });

  it("the search modal's category menu shows no counts until the index is complete", () => {
    const labels = (countsComplete: boolean) => {
      const view = searchModal({ categories, countsComplete, metadata: {}, sandbox: false });
      const json = JSON.parse(JSON.stringify(view.blocks)) as Array<{
        type: string;
        elements?: Array<{ type: string; options?: Array<{ text: { text: string } }> }>;
      }>;
      const select = json.find((b) => b.type === 'actions')?.elements?.[0];
      return (select?.options ?? []).map((o) => o.text.text);
    };
    expect(labels(false)).toEqual(['All categories', 'Bearings', 'Widgets']);
    expect(labels(true)).toEqual(['All categories', 'Bearings (0)', 'Widgets (40)']);
  });
});

describe('itemOption', () => {
  it('keeps the option text within 75 characters and the value within 150', () => {
    const option = itemOption({
      code: 'X'.repeat(200),
      description: 'D'.repeat(300),
      available: -3,
    });
    expect(option.text.text.length).toBeLessThanOrEqual(75);
    expect(option.value?.length).toBeLessThanOrEqual(150);
  });
});

describe('searchModal', () => {
  it('carries its state in private_metadata and shows a card without its buttons', () => {
    const view = searchModal({
      categories: [{ name: 'Widgets', id: 2, items: 40 }],
      countsComplete: true,
      metadata: { category: 2, code: 'WID-0009' },
      card: {
        text: 'card',
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: 'WID-0009' } },
          { type: 'actions', elements: [] },
        ],
      },
      sandbox: false,
    });
    expect(readSearchMetadata(view.private_metadata)).toEqual({ category: 2, code: 'WID-0009' });
    expect(view.blocks.some((b) => b.type === 'actions' && b.block_id === undefined)).toBe(false);
    expect(view.submit?.text).toBe('Share to channel');
    expect(readSearchMetadata('{"category":-1}')).toEqual({});
    expect(readSearchMetadata('not json')).toEqual({});
  });
});
