/**
 * The largest messages the views can build: every list long and every string long and full
 * of characters that grow when escaped. The budgets in itemParts.ts and contactCard.ts must
 * keep these inside Slack's limits.
 */
import { describe, expect, it } from 'vitest';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { contactCard, contactReveal } from '../../src/views/contactCard.js';
import { itemCard } from '../../src/views/itemCard.js';
import { contactSearchList, itemSearchList } from '../../src/views/searchLists.js';
import { shortcutResults } from '../../src/views/shortcut.js';
import {
  makeAddressbookEntry,
  makeBomComponent,
  makeBranch,
  makeContact,
  makeContactRow,
  makeFreshness,
  makeItem,
  makeItemRow,
  makeKit,
  makePage,
  TEST_NOW,
} from '../helpers/builders.js';

/** 5,000 characters that become 5x longer when escaped. */
const huge = (tag: string) => `${tag}${'&'.repeat(5000)}`;
const code = (i: number) => `${'&'.repeat(90)}${i}`.slice(0, 100);
const base = { freshness: makeFreshness({ stale: true }), now: TEST_NOW, internalFigures: true };

const worstItem = makeItem({
  code: code(0),
  description: huge('d'),
  category: huge('c'),
  primarysupplier: huge('s'),
  status_label: huge('st'),
  supplierCodes: Array.from({ length: 20 }, (_, i) => huge(`sc${i}`)),
  branches: Array.from({ length: 200 }, (_, i) =>
    makeBranch({
      id: i,
      name: huge(`b${i}`),
      soh: -1_234_567.125 - i,
      allocated: 9_876_543.5,
      onorder: 1_000_000.25,
    }),
  ),
  bom: Array.from({ length: 120 }, (_, i) =>
    makeBomComponent({
      inventoryId: i,
      code: code(i),
      description: huge(`bd${i}`),
      qty: 1234.5678,
      cost: 98765.4321,
      has_bom: true,
    }),
  ),
  kits: Array.from({ length: 80 }, (_, i) =>
    makeKit({
      inventoryId: i,
      code: code(i),
      description: huge(`k${i}`),
      groupname: huge(`g${i % 7}`),
      auto: i % 2 === 0,
    }),
  ),
});

describe('worst cases stay within the limits', () => {
  it.each([
    ['best branches', { branchView: 'best' as const }],
    ['all branches', { branchView: 'all' as const }],
    ['deep path', { path: Array.from({ length: 9 }, (_, i) => code(i)) }],
    ['shared', { shared: true }],
  ])('item card: %s', (_name, extra) => {
    expect(checkMessageLimits(itemCard({ item: worstItem, ...base, ...extra }))).toEqual([]);
  });

  it('item card with 20 branches shown as fields', () => {
    const item = { ...worstItem, branches: worstItem.branches.slice(0, 20) };
    expect(checkMessageLimits(itemCard({ item, ...base, branchView: 'all' }))).toEqual([]);
  });

  const worstContact = makeContact({
    code: code(1),
    company: huge('co'),
    status_label: huge('s'),
    account_type: huge('t'),
    custgroup_label: huge('g'),
    abn: huge('a'),
    address4: huge('a4'),
    state: huge('st'),
    telephone: huge('0'),
    email: `${'a'.repeat(64)}@${'d'.repeat(250)}.com`.repeat(20),
    salesperson: huge('sp'),
    terms: huge('te'),
    climit: -123_456_789.123456,
    addressbook: Array.from({ length: 300 }, (_, i) =>
      makeAddressbookEntry({
        id: i,
        salutation: huge('sa'),
        name: huge(`n${i}`),
        role: huge('r'),
        department: huge('de'),
        telephone: huge('1'),
        mobile: huge('2'),
        email: huge('e@x.com'),
        email2: huge('f@y.com'),
        status_label: huge('x'),
      }),
    ),
  });

  it.each([0, 5, 37, 1000])('contact card, people page %i', (peoplePage) => {
    expect(
      checkMessageLimits(
        contactCard({ contact: worstContact, ...base, canReveal: true, peoplePage }),
      ),
    ).toEqual([]);
  });

  it('contact reveal with 300 people', () => {
    const message = contactReveal({ contact: worstContact, now: TEST_NOW });
    expect(checkMessageLimits(message)).toEqual([]);
    expect(JSON.stringify(message.blocks)).toMatch(/more people: too many to show/);
  });

  it('search lists with 10 long rows, and a caller that passes 100 rows', () => {
    const itemRows = Array.from({ length: 100 }, (_, i) =>
      makeItemRow({
        code: code(i),
        description: huge('d'),
        category_name: huge('c'),
        supplier_name: huge('s'),
        status_label: huge('x'),
      }),
    );
    const contactRows = Array.from({ length: 100 }, (_, i) =>
      makeContactRow({
        code: code(i),
        company: huge('c'),
        address4: huge('a'),
        state: huge('s'),
        salesperson: huge('p'),
        account_type: huge('t'),
        telephone: huge('9'),
        email: huge('e@x.com'),
      }),
    );
    const words = Array.from({ length: 20 }, () => '&'.repeat(100));
    const notice = huge('n');
    for (const rows of [itemRows.slice(0, 10), itemRows]) {
      const page = makePage(rows, {
        offset: 99_990,
        hasNext: true,
        hasPrevious: true,
        total: 1_000_000,
      });
      expect(
        checkMessageLimits(
          itemSearchList({ ...base, query: { words, category: 1, supplier: 2 }, page, notice }),
        ),
      ).toEqual([]);
    }
    for (const rows of [contactRows.slice(0, 10), contactRows]) {
      const page = makePage(rows, { offset: 10, hasNext: true, hasPrevious: true });
      expect(
        checkMessageLimits(
          contactSearchList({ ...base, query: { words, type: 'client' }, page, notice }),
        ),
      ).toEqual([]);
    }
  });

  it('shortcut answer with many codes', () => {
    const message = shortcutResults({
      found: Array.from({ length: 30 }, () => ({ item: worstItem, freshness: base.freshness })),
      notFound: Array.from({ length: 50 }, (_, i) => huge(`nf${i}`)),
      failed: Array.from({ length: 30 }, (_, i) => ({
        code: huge(`f${i}`),
        error: new Error('x'),
      })),
      now: TEST_NOW,
    });
    expect(checkMessageLimits(message)).toEqual([]);
  });
});
