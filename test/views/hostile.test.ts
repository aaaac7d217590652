/**
 * ERP text is data, never markup: whatever the ERP sends, no message can mention anyone,
 * spoof a link or break Slack's limits. Example-based tests for the classic attacks, then a
 * fast-check property over arbitrary strings in every text field of every view.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Contact, Item } from '../../src/erp/schemas.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { contactCard, contactReveal } from '../../src/views/contactCard.js';
import { itemCard } from '../../src/views/itemCard.js';
import type { SlackMessage } from '../../src/views/message.js';
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
import { allText, foreignMarkup, mrkdwnTexts } from './inspect.js';

const HOSTILE = [
  '<!channel>',
  '<@U123>',
  '<https://evil.example|Click me>',
  'A & B',
  '*bold* _it_ ~s~ `c`',
  '東京の在庫 ελληνικά 🧪',
];

function everyView(item: Item, contact: Contact): SlackMessage[] {
  const freshness = makeFreshness();
  const base = { freshness, now: TEST_NOW, internalFigures: true };
  const row = makeItemRow({
    code: item.code,
    description: item.description,
    category_name: item.category,
    supplier_name: item.primarysupplier,
    status_label: item.status_label,
  });
  const contactRow = makeContactRow({
    code: contact.code,
    company: contact.company,
    address4: contact.address4,
    state: contact.state,
    telephone: contact.telephone,
    email: contact.email,
    salesperson: contact.salesperson,
    account_type: contact.account_type,
    status_label: contact.status_label,
  });
  return [
    itemCard({ item, ...base }),
    itemCard({ item, ...base, branchView: 'all', path: [item.code || 'X'], shared: false }),
    itemCard({ item, ...base, shared: true }),
    contactCard({ contact, ...base, canReveal: true }),
    contactCard({ contact, ...base, canReveal: true, shared: true, peoplePage: 1 }),
    contactReveal({ contact, now: TEST_NOW }),
    itemSearchList({
      ...base,
      query: { words: [item.code || 'x'] },
      page: makePage([row, row], { hasNext: true }),
      notice: `No item ${item.code}`,
    }),
    contactSearchList({
      ...base,
      query: { words: [contact.code || 'x'] },
      page: makePage([contactRow]),
    }),
    shortcutResults({
      found: [{ item, freshness }],
      notFound: [item.description],
      failed: [],
      now: TEST_NOW,
    }),
  ];
}

function hostileItem(text: (i: number) => string): Item {
  return makeItem({
    code: text(0),
    description: text(1),
    category: text(2),
    primarysupplier: text(3),
    status_label: text(4),
    supplierCodes: [text(5)],
    branches: [0, 1, 2].map((i) => makeBranch({ id: i, name: text(6 + i), soh: i * 3 })),
    bom: [0, 1].map((i) =>
      makeBomComponent({
        inventoryId: i,
        code: text(9 + i),
        description: text(11 + i),
        has_bom: true,
      }),
    ),
    kits: [0, 1].map((i) =>
      makeKit({
        inventoryId: i,
        code: text(13 + i),
        description: text(15 + i),
        groupname: text(17 + i),
        auto: i === 0,
      }),
    ),
  });
}

function hostileContact(text: (i: number) => string): Contact {
  return makeContact({
    code: text(0),
    company: text(1),
    status_label: text(2),
    account_type: text(3),
    custgroup_label: text(4),
    abn: text(5),
    address4: text(6),
    state: text(7),
    telephone: text(8),
    email: text(9),
    salesperson: text(10),
    terms: text(11),
    addressbook: Array.from({ length: 10 }, (_, i) =>
      makeAddressbookEntry({
        id: i,
        salutation: text(12),
        name: text(13 + i),
        role: text(14),
        department: text(15),
        telephone: text(16),
        mobile: text(17),
        email: text(18),
        email2: text(19),
        status_label: text(20),
      }),
    ),
  });
}

function expectSafe(message: SlackMessage): void {
  expect(checkMessageLimits(message)).toEqual([]);
  // Slack parses `<…>` in mrkdwn and in the fallback; plain_text is shown literally.
  for (const text of [message.text, ...mrkdwnTexts(message)]) {
    expect(foreignMarkup(text)).toEqual([]);
  }
}

describe('hostile ERP text', () => {
  it.each(HOSTILE)('%s is escaped everywhere it is mrkdwn', (evil) => {
    const messages = everyView(
      hostileItem(() => evil),
      hostileContact(() => evil),
    );
    for (const message of messages) expectSafe(message);
    const cardText = allText(messages[0] as SlackMessage);
    if (evil.includes('<'))
      expect(cardText).toContain(
        evil.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;'),
      );
  });

  it('keeps plain_text unescaped (Slack shows it literally)', () => {
    const message = itemCard({
      item: makeItem({ code: 'A&B', description: '<x>' }),
      freshness: makeFreshness(),
      now: TEST_NOW,
    });
    // Buttons are plain text: the code rides in their labels and values as typed.
    const labels = JSON.stringify(message.blocks.filter((b) => b.type === 'actions'));
    expect(labels).not.toContain('&amp;');
    expect(JSON.stringify(message.blocks[0])).toContain('A&amp;B');
  });

  it('truncates 3,000+ character fields and stays within limits', () => {
    const long = (i: number) => `${'&<'.repeat(900)}${i}${'x'.repeat(3000)}`;
    for (const message of everyView(hostileItem(long), hostileContact(long))) expectSafe(message);
    const top = itemCard({ item: hostileItem(long), freshness: makeFreshness(), now: TEST_NOW })
      .blocks[1];
    const text =
      top?.type === 'context' && top.elements[0]?.type === 'mrkdwn' ? top.elements[0].text : '';
    expect(text.length).toBeLessThan(200);
    expect(text).toMatch(/…/);
  });

  it('never leaks a contact phone or e-mail through redaction, even in odd shapes', () => {
    const phone = '+61 (0)2 9876-5321 / 0412345678';
    const email = 'jane.doe@acme.com.au, x@y.co';
    const contact = makeContact({
      telephone: phone,
      email,
      addressbook: [
        makeAddressbookEntry({ telephone: phone, mobile: phone, email, email2: email }),
      ],
    });
    const text = allText(
      contactCard({ contact, freshness: makeFreshness(), now: TEST_NOW, canReveal: true }),
    );
    for (const secret of ['9876', '0412345678', 'jane.doe@', 'x@y.co'])
      expect(text).not.toContain(secret);
  });
});

describe('property: arbitrary ERP strings', () => {
  const erpString = fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE, '', ' ', '\n\n', '&amp;', '<', '>') },
    // Long fields: a short arbitrary string repeated (generating 3,000 random graphemes is slow).
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
        .map((s) => s.repeat(Math.ceil(3200 / s.length))),
    },
  );

  it('no view emits foreign <! or <@ markup, and every message passes the limits', () => {
    fc.assert(
      fc.property(fc.array(erpString, { minLength: 21, maxLength: 21 }), (strings) => {
        const text = (i: number) => strings[i % strings.length] ?? '';
        for (const message of everyView(hostileItem(text), hostileContact(text)))
          expectSafe(message);
      }),
      { numRuns: 100 },
    );
  });
});
