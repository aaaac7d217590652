/**
 * What the ERP spec leaves open, at the view level (docs/erp-api.md, "What the API
 * description leaves open"): `supplierCodes` elements of any shape, status labels beyond the documented ones,
 * and the account fields whose meaning is not shown. The end-to-end side is
 * test/e2e/specGaps.*.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ItemSchema } from '../../src/erp/schemas.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { contactCard } from '../../src/views/contactCard.js';
import { itemCard } from '../../src/views/itemCard.js';
import { contactSearchList, itemSearchList } from '../../src/views/searchLists.js';
import {
  makeContact,
  makeContactRow,
  makeFreshness,
  makeItem,
  makeItemRow,
  makePage,
  TEST_NOW,
} from '../helpers/builders.js';
import { allText } from './inspect.js';

const base = { freshness: makeFreshness(), now: TEST_NOW, internalFigures: true };

/** The card for an item whose raw `supplierCodes` went through the production schema. */
function cardWithSupplierCodes(supplierCodes: unknown) {
  const raw = { ...makeItem(), supplierCodes };
  const item = ItemSchema.parse(raw);
  return itemCard({ item, ...base });
}

/** The "Supplier codes" part of a card's details line, or undefined when it has none. */
function supplierCodesField(message: ReturnType<typeof itemCard>): string | undefined {
  const texts = message.blocks.flatMap((block) =>
    block.type === 'context'
      ? block.elements.flatMap((e) => (e.type === 'mrkdwn' ? [e.text] : []))
      : [],
  );
  const line = texts.find((text) => text.includes('Supplier codes '));
  return line?.slice(line.indexOf('Supplier codes '));
}

describe('supplierCodes: accepted in any shape, shown only when readable', () => {
  it('accepts odd element shapes without an error and shows the readable ones', () => {
    const message = cardWithSupplierCodes([
      'AC-100',
      { supplier: 'Acme Supplies', code: 'ACM-7' },
      42,
      { code: { nested: 'X' } },
      { supplier: 'Nobody' },
      ['IN-ARRAY'],
      null,
      true,
      {},
      '',
      '   ',
    ]);
    expect(supplierCodesField(message)).toBe('Supplier codes `AC-100`, `ACM-7`, `42`');
    const text = allText(message);
    for (const garbage of ['[object', 'null', 'true', 'IN-ARRAY', 'nested', 'Nobody']) {
      expect(text).not.toContain(garbage);
    }
  });

  it('shows no field at all when nothing is readable, or the field is empty, null or missing', () => {
    for (const codes of [[{ id: 3 }, [], null, false], [], null, undefined]) {
      expect(supplierCodesField(cardWithSupplierCodes(codes))).toBeUndefined();
    }
  });

  it('escapes a hostile code and caps a long list', () => {
    const hostile = cardWithSupplierCodes(['<!channel>', 'A`B&C']);
    expect(supplierCodesField(hostile)).toBe('Supplier codes `&lt;!channel&gt;`, `AˋB&amp;C`');

    const many = cardWithSupplierCodes(
      Array.from({ length: 40 }, (_, i) => ({ code: `SC-${i}-${'x'.repeat(80)}` })),
    );
    const field = supplierCodesField(many) ?? '';
    expect(field).toMatch(/\+37$/);
    expect(field.length).toBeLessThan(400);
    expect(checkMessageLimits(many)).toEqual([]);
  });
});

describe('status: the label as given, whatever the number', () => {
  it('shows an undocumented item status label on the card and in a list row', () => {
    const card = itemCard({ item: makeItem({ status: 7, status_label: 'Obsolete' }), ...base });
    expect(allText(card)).toContain('Blue widget assembly · Obsolete');
    const list = itemSearchList({
      ...base,
      query: { words: ['widget'] },
      page: makePage([makeItemRow({ status_label: 'Obsolete' })]),
    });
    expect(allText(list)).toContain('`WIDGET-9` Blue widget assembly · Obsolete');
  });

  it('shows an undocumented contact status label on the card and in a list row', () => {
    const card = contactCard({
      contact: makeContact({ status: 'H', status_label: 'On hold' }),
      ...base,
      canReveal: false,
    });
    expect(allText(card)).toContain('`ACME01` · Customer · On hold');
    const list = contactSearchList({
      ...base,
      query: { words: ['acme'] },
      page: makePage([
        makeContactRow({ status: 9, status_label: 'On hold' }),
        makeContactRow({ code: 'ACME02', status_label: 'Active' }),
      ]),
    });
    const text = allText(list);
    expect(text).toContain('*Acme Pty Ltd* · `ACME01` · Customer · On hold');
    // Active is the normal case: not repeated on every row.
    expect(text).toContain('*Acme Pty Ltd* · `ACME02` · Customer\n');
  });

  it('escapes a label that carries markup', () => {
    const card = itemCard({ item: makeItem({ status_label: '<!here> & gone' }), ...base });
    const text = allText(card);
    expect(text).toContain('&lt;!here&gt; &amp; gone');
    expect(text).not.toContain('<!here>');
  });
});

describe('abn, address4, terms, discount, stopcred: as given, under neutral labels', () => {
  it('shows the values untouched: no percent, no currency, no judgement from stopcred', () => {
    const card = contactCard({
      contact: makeContact({
        abn: 'N/A <pending>',
        address4: 'Level 3 & rear',
        terms: 'C.O.D.',
        discount: 12.345,
        stopcred: -1,
      }),
      ...base,
      canReveal: false,
    });
    const text = allText(card);
    for (const expected of [
      'ABN N/A &lt;pending&gt;',
      'Level 3 &amp; rear',
      'Terms C.O.D.',
      'Discount 12.345',
      // Any non-zero flag is the plain warning the product asks for; its figure is not read.
      ':warning: *On stop credit: check before shipping*',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/12\.345\s*%|\$\s*12\.345|not given/i);
  });

  it('leaves out empty text fields, shows 0 for zero figures, no zero stop-credit flag', () => {
    const text = allText(
      contactCard({
        contact: makeContact({ abn: '', address4: '', terms: '', discount: 0, stopcred: 0 }),
        ...base,
        canReveal: false,
      }),
    );
    for (const expected of ['Credit limit 5,000 · Discount 0', 'NSW · :telephone_receiver:']) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/ABN|Terms|stop credit/i);
  });
});
