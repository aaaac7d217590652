/**
 * The catalogue's views stay inside Slack's limits whatever the catalogue holds: a long
 * categories list, hostile names, long codes in options, and the search modal (App Home: appHome.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { categoriesList, itemOption } from '../../src/views/catalogue.js';
import { checkMessageLimits } from '../../src/views/limits.js';
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
