/**
 * The extreme records of the sandbox data set (helpers/sweepData.ts) as a person reads them:
 * the longest description, a bidi override, the biggest BOM and addressbook, lone and last
 * search pages, an over-allocated item. Every record of the data set is swept for safety in
 * sandboxSweep.records.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { contactCard } from '../../src/views/contactCard.js';
import { codeSpan, escapeMrkdwn } from '../../src/views/format.js';
import { itemCard } from '../../src/views/itemCard.js';
import { BOM_PAGE_SIZE } from '../../src/views/itemParts.js';
import type { SlackMessage } from '../../src/views/message.js';
import { contactSearchList, itemSearchList } from '../../src/views/searchLists.js';
import { shortcutResults } from '../../src/views/shortcut.js';
import { TEST_NOW } from '../helpers/builders.js';
import { contactRows, contacts, fresh, itemRows, items, top } from './helpers/sweepData.js';

function record<T extends { code: string }>(list: readonly T[], code: string): T {
  const found = list.find((entry) => entry.code === code);
  if (!found) throw new Error(`${code} missing from the sandbox`);
  return found;
}

const sectionTexts = (message: SlackMessage) =>
  message.blocks.flatMap((b) => (b.type === 'section' && b.text ? [b.text.text] : []));

describe('the extreme records, read as a person would', () => {
  const base = { freshness: fresh, now: TEST_NOW, internalFigures: true };

  it('a long description is cut at a word to two phone lines, under the answer', () => {
    const item = record(items, 'LONG-DESC');
    const message = itemCard({ ...base, item });
    const [answer, next] = message.blocks;
    expect(answer?.type === 'section' && answer.text?.text).toMatch(/^\*`LONG-DESC`\* · \*/);
    const below =
      next?.type === 'context' && next.elements[0]?.type === 'mrkdwn' ? next.elements[0].text : '';
    const [description = ''] = below.split(' · ');
    expect(description).toMatch(/^Heavy duty industrial widget .*[a-z;,]…$/);
    expect(description.length).toBeLessThanOrEqual(72);
    expect(item.description.replace(/\s+/g, ' ')).toContain(description.slice(0, -1));
    // The text fallback carries more of it, after the answer.
    expect(message.text.length).toBeGreaterThan(400);
  });

  it('a bidi override in a description cannot turn our own text round', () => {
    const item = record(items, 'ODD-UNICODE');
    expect(item.description).toContain('\u202E');
    const card = itemCard({ ...base, item });
    expect(card.text).toMatch(/^ODD-UNICODE: [\d,]+ available/);
    expect(card.text).not.toContain('\u202E');
    const answer = shortcutResults({
      found: [{ item, freshness: fresh }],
      notFound: [],
      failed: [],
      now: TEST_NOW,
    });
    expect(answer.text).not.toContain('\u202E');
  });

  it('the 86-component BOM pages through every component exactly once', () => {
    const item = record(items, 'PLANT-88');
    expect(item.bom).toHaveLength(86);
    const pages = Array.from({ length: Math.ceil(86 / BOM_PAGE_SIZE) }, (_, bomPage) =>
      sectionTexts(itemCard({ ...base, item, bomPage, part: 'bom' })).join('\n'),
    );
    expect(pages[0]).toContain(`*Bill of materials* · 1–${BOM_PAGE_SIZE} of 86`);
    expect(pages.at(-1)).toMatch(/\* · \d+–86 of 86$/m);
    for (const component of item.bom) {
      expect(pages.filter((page) => page.includes(codeSpan(component.code)))).toHaveLength(1);
    }
    expect(pages.join('\n')).not.toMatch(/not shown/);
  });

  it('the 40-person addressbook pages through everyone exactly once', () => {
    const contact = record(contacts, 'BIGCO01');
    expect(contact.addressbook).toHaveLength(40);
    const pages = Array.from({ length: 5 }, (_, peoplePage) =>
      sectionTexts(
        contactCard({ ...base, contact, canReveal: true, peoplePage, allPeople: true }),
      ).join('\n'),
    );
    expect(pages[0]).toContain('*People* · 40 · 1–8 (page 1 of 5)');
    expect(pages[4]).toContain('*People* · 40 · 33–40 (page 5 of 5)');
    for (const person of contact.addressbook) {
      const name = escapeMrkdwn([person.salutation, person.name].filter(Boolean).join(' '));
      expect(pages.filter((page) => page.includes(`*${name}*`))).toHaveLength(1);
    }
  });

  it('search lists say "1 of 1" for a lone result and give the total on the last page', () => {
    const row = record(itemRows, 'LONG-DESC');
    const lone = itemSearchList({
      ...base,
      query: { words: ['heavy', 'duty', 'industrial'] },
      page: {
        rows: [row],
        offset: 0,
        pageSize: 10,
        hasPrevious: false,
        hasNext: false,
        total: undefined,
      },
    });
    expect(sectionTexts(lone)[0]).toBe('*Items matching* “heavy duty industrial” · 1 of 1');
    expect(sectionTexts(lone)[1]).toMatch(/^`LONG-DESC` Heavy duty .* temperature and…\n/);
    const last = contactSearchList({
      ...base,
      query: { words: ['pty'] },
      page: {
        rows: contactRows.slice(0, 4),
        offset: 20,
        pageSize: 10,
        hasPrevious: true,
        hasNext: false,
        total: undefined,
      },
    });
    expect(sectionTexts(last)[0]).toBe('*Contacts matching* “pty” · 21–24 of 24');
    expect(last.text).toContain('(21–24 of 24)');
  });

  it('an over-allocated item says so in the shortcut notification too', () => {
    const item = top(items, (i) => -i.available, 1)[0];
    if (!item || item.available >= 0) throw new Error('no over-allocated item in the sandbox');
    const answer = shortcutResults({
      found: [{ item, freshness: fresh }],
      notFound: [],
      failed: [],
      now: TEST_NOW,
    });
    expect(answer.text).toContain(`${item.code}: ${item.available} available, over-allocated`);
  });
});
