/**
 * Every main answer fits one phone screen, counted as the product's "On a phone" rule counts
 * (test/helpers/phoneLines.ts): at most 20 lines, the answer in the first two and first in the
 * `text` fallback. Held on every sandbox record and on its worst cases (PLANT-88's 86
 * components, BIGCO01's 40 people, items with 12 branches and long descriptions).
 */
import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/erp/schemas.js';
import { SEARCH_PAGE_SIZE } from '../../src/lookup/types.js';
import { stockVerdict, type VerdictQuestion } from '../../src/rules/stock.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { contactCard } from '../../src/views/contactCard.js';
import { escapeMrkdwn } from '../../src/views/format.js';
import { itemCard } from '../../src/views/itemCard.js';
import { contactSearchList } from '../../src/views/searchLists.js';
import { makeFreshness, makePage, TEST_NOW } from '../helpers/builders.js';
import { blockLines, PHONE_SCREEN, phoneFit, visibleMrkdwn, wrap } from '../helpers/phoneLines.js';
import { contactRows, contacts, extremeItems, items, itemsByCode } from './helpers/sweepData.js';

const base = { freshness: makeFreshness(), now: TEST_NOW, sandbox: true, internalFigures: true };
const stale = makeFreshness({ stale: true, fromCache: true });

function card(item: Item, question?: VerdictQuestion, extra: Record<string, unknown> = {}) {
  return itemCard({
    ...base,
    item,
    price: 1_234_567.89,
    ...(question ? { question, verdict: stockVerdict(item, question) } : {}),
    ...extra,
  });
}

const named = (code: string): Item => {
  const item = itemsByCode.get(code);
  if (!item) throw new Error(`no ${code} in the sandbox`);
  return item;
};
const stocked = (item: Item) =>
  item.branches.filter((b) => b.soh !== 0 || b.allocated !== 0 || b.onorder !== 0).length;

describe('the phone layout rule', () => {
  it('reads mrkdwn as it is read: marks, link targets and escapes take no room', () => {
    expect(visibleMrkdwn('*Bold* `CODE` <https://x.example/very/long|link> &amp; :x:')).toBe(
      'Bold CODE link & ██',
    );
    expect(visibleMrkdwn('<!date^1700000000^{ago}|27 Nov 2026 at 10:42 UTC>')).toBe(
      '3 minutes ago',
    );
  });

  it('wraps at a word, and cuts a word longer than the line', () => {
    expect(wrap('aaaa bbbb cccc', 9)).toEqual(['aaaa bbbb', 'cccc']);
    expect(wrap('x'.repeat(45), 40)).toHaveLength(2);
  });

  it('counts fields as two columns, headers at 26, buttons three to a row', () => {
    const field = (text: string) => ({ type: 'mrkdwn', text });
    expect(
      blockLines({
        type: 'section',
        fields: [field('*Available*\n42'), field('*On hand*\n67'), field('*Status*\nActive')],
      }),
    ).toHaveLength(4);
    expect(
      blockLines({ type: 'header', text: { type: 'plain_text', text: 'x '.repeat(20) } }),
    ).toHaveLength(2);
    const button = { type: 'button', text: { type: 'plain_text', text: 'B' } };
    expect(
      blockLines({ type: 'actions', elements: [button, button, button, button] }),
    ).toHaveLength(2);
  });
});

describe('the item card fits one phone screen', () => {
  const worst = [
    named('PLANT-88'),
    named('WIDGET-9'),
    [...items].sort((a, b) => stocked(b) - stocked(a))[0] as Item,
    [...items].sort((a, b) => b.description.length - a.description.length)[0] as Item,
    [...items].sort((a, b) => b.code.length - a.code.length)[0] as Item,
  ];

  it.each(worst.map((item) => [item.code.slice(0, 30), item]))('%s', (_code, item) => {
    for (const extra of [{}, { shared: true }, { freshness: stale }]) {
      const message = card(item, undefined, extra);
      const fit = phoneFit(message);
      expect(checkMessageLimits(message)).toEqual([]);
      expect(fit.count, fit.lines.join('\n')).toBeLessThanOrEqual(PHONE_SCREEN);
      // Stale: the first line says the figures are old, the available comes right after.
      if (extra.freshness === stale) {
        expect(fit.lines[0]).toMatch(/^██ ERP unreachable: figures as of /);
        expect(fit.lines.slice(0, 3).join('\n')).toMatch(/available|over-allocated/);
      } else expect(fit.top).toMatch(/available|over-allocated/);
    }
  });

  it('a plain lookup leads its text fallback with the available and on order', () => {
    const message = card(named('WIDGET-9'));
    expect(message.text).toMatch(/^WIDGET-9: 42 available, 42 on order/);
  });

  it('sandbox items (every tenth, and every extreme one), plain and asked, within 20 lines', () => {
    const over: string[] = [];
    for (const item of items.filter((i, n) => n % 10 === 0 || extremeItems.has(i.code))) {
      for (const question of [undefined, { quantity: 50, branchWords: ['perth'] }]) {
        const message = card(item, question);
        const fit = phoneFit(message);
        if (fit.count > PHONE_SCREEN) over.push(`${item.code}: ${fit.count}`);
      }
    }
    expect(over).toEqual([]);
  });
});

describe('the verdict card fits one phone screen, the verdict first', () => {
  const questions: VerdictQuestion[] = [
    { quantity: 50, branchWords: ['perth'] },
    { quantity: 5 },
    { quantity: 5_000_000 },
    { branchWords: ['sydney'] },
    { quantity: 50, branchWords: ['perth', 'WA'] },
  ];
  const worst = [
    named('WIDGET-9'),
    named('PLANT-88'),
    [...items].sort((a, b) => stocked(b) - stocked(a))[0] as Item,
    [...items].sort((a, b) => b.description.length - a.description.length)[0] as Item,
  ];

  it.each(questions.map((q) => [JSON.stringify(q), q]))('%s', (_name, question) => {
    for (const item of worst) {
      const message = card(item, question);
      const fit = phoneFit(message);
      expect(fit.count, fit.lines.join('\n')).toBeLessThanOrEqual(PHONE_SCREEN);
      const verdict = stockVerdict(item, question);
      const word = /^(Yes|No|In stock|None free)\b/;
      // The verdict is the first line (after its icon), at most about 80 characters.
      const first = message.blocks[0];
      const firstText =
        first?.type === 'section' && first.text ? visibleMrkdwn(first.text.text) : '';
      expect(firstText.replace(/^██ /, '')).toMatch(word);
      expect(firstText.length).toBeLessThanOrEqual(84);
      expect(fit.top).toMatch(/^██ (Yes|No|In stock|None free):/);
      expect(message.text).toMatch(word);
      expect(message.text).toContain(item.code);
      if (!verdict.canSupply && verdict.quantity !== undefined) {
        // The next line says who could cover it, or that no single branch can.
        expect(fit.lines.slice(1, 4).join(' ')).toMatch(/could:|No single branch|has all|Split:/);
      }
    }
  });

  it('says it the contract’s way', () => {
    const message = card(named('WIDGET-9'), { quantity: 50, branchWords: ['perth'] });
    const [line] = phoneFit({ blocks: message.blocks.slice(0, 1) }).lines;
    expect(visibleMrkdwn(JSON.stringify(message.blocks[0]))).toContain(
      'No: Perth has 0 free (2 over-allocated), 10 on order with no date',
    );
    expect(line).toMatch(/^██ No: Perth/);
  });
});

describe('a contact search by a person', () => {
  it('says on one phone line that a row not looked up may have matched by a person', () => {
    const rows = contactRows.slice(0, SEARCH_PAGE_SIZE);
    const list = (notLookedUp?: Set<string>) =>
      contactSearchList({
        ...base,
        query: { words: ['victoria'] },
        page: makePage(rows, { hasNext: true }),
        ...(notLookedUp ? { notLookedUp } : {}),
      });
    const noted = phoneFit(list(new Set(rows.map((row) => row.code))));
    expect(noted.lines.filter((line) => line.startsWith('██ Matched by'))).toHaveLength(10);
    // One line a row more than the same page without the notes: no note wraps.
    expect(noted.count).toBe(phoneFit(list()).count + rows.length);
  });
});

describe('the contact card fits one phone screen', () => {
  const withMostPeople = [...contacts].sort((a, b) => b.addressbook.length - a.addressbook.length);
  const longestName = [...contacts].sort((a, b) => b.company.length - a.company.length);
  const worst = [
    contacts.find((c) => c.code === 'BIGCO01'),
    contacts.find((c) => c.code === 'ACME01'),
    withMostPeople[0],
    longestName[0],
    contacts.find((c) => c.stopcred !== 0),
  ].filter((c) => c !== undefined);

  it.each(worst.map((c) => [c.code, c]))('%s', (code, contact) => {
    for (const extra of [{}, { shared: true }, { peopleWords: ['accounts'] }]) {
      const message = contactCard({ ...base, contact, canReveal: true, ...extra });
      const fit = phoneFit(message);
      expect(fit.count, fit.lines.join('\n')).toBeLessThanOrEqual(PHONE_SCREEN);
      expect(fit.lines.slice(0, 3).join(' ')).toContain(code);
      const company = escapeMrkdwn(contact.company.replace(/\s+/g, ' ').trim());
      expect(fit.top).toContain(visibleMrkdwn(company).slice(0, 10));
      expect(message.text.startsWith(company.slice(0, 10))).toBe(true);
    }
  });

  it('every sandbox contact within 20 lines', () => {
    const over = contacts
      .map(
        (contact) =>
          [contact.code, phoneFit(contactCard({ ...base, contact, canReveal: true }))] as const,
      )
      .filter(([, fit]) => fit.count > PHONE_SCREEN)
      .map(([code, fit]) => `${code}: ${fit.count}`);
    expect(over).toEqual([]);
  });

  it('BIGCO01 lists five people, then "All people (40)"', () => {
    const contact = contacts.find((c) => c.code === 'BIGCO01');
    if (!contact) throw new Error('no BIGCO01');
    const message = contactCard({ ...base, contact, canReveal: true });
    const lines = phoneFit(message).lines.join('\n');
    expect(lines).toContain(`[All people (${contact.addressbook.length})]`);
  });
});
