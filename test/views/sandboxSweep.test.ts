/**
 * A sweep of the views over the whole sandbox data set (about 2,000 items and 600 contacts,
 * the same records the sandbox ERP serves), parsed through the app's own schemas: every item
 * card (best and all branches, top level and drilled down, private and shared), every page of
 * every contact card (shared or not, with and without Reveal), every reveal answer, every
 * search page and shortcut answer. Each message must fit Block Kit, carry no markup of the
 * ERP's, leak no contact details outside a reveal answer, and carry only decodable buttons.
 * Hand-written worst cases live in worstCase.test.ts and hostile.test.ts; this is the
 * realistic data, all of it, so a record that breaks a view cannot hide in the sandbox.
 */
import { describe, expect, it } from 'vitest';
import {
  type Contact,
  ContactSchema,
  type ContactSearchRow,
  ContactSearchRowSchema,
  type Item,
  ItemSchema,
  type ItemSearchRow,
  ItemSearchRowSchema,
} from '../../src/erp/schemas.js';
import type { Page } from '../../src/lookup/types.js';
import { SEARCH_PAGE_SIZE } from '../../src/lookup/types.js';
import { ENCODING_CODES, HOSTILE_ITEM_CODES } from '../../src/sandbox/data-fixed.js';
import { FIXED_CONTACT_CODES } from '../../src/sandbox/data-fixed-contacts.js';
import { DEFAULT_SANDBOX_SEED, generateSandboxData } from '../../src/sandbox/index.js';
import { decodeState, MAX_VALUE_LENGTH } from '../../src/views/actions.js';
import { contactCard, contactReveal } from '../../src/views/contactCard.js';
import { itemCard } from '../../src/views/itemCard.js';
import { checkMessageLimits } from '../../src/views/limits.js';
import type { SlackMessage } from '../../src/views/message.js';
import { escapeMrkdwn } from '../../src/views/mrkdwn.js';
import { pageCount } from '../../src/views/people.js';
import { contactSearchList, itemSearchList } from '../../src/views/searchLists.js';
import { shortcutResults } from '../../src/views/shortcut.js';
import { makeFreshness, TEST_NOW } from '../helpers/builders.js';
import { foreignMarkup, mrkdwnTexts } from './inspect.js';

const data = generateSandboxData(DEFAULT_SANDBOX_SEED);
const items: Item[] = data.items.map((entry) => ItemSchema.parse(entry.record));
const contacts: Contact[] = data.contacts.map((entry) => ContactSchema.parse(entry.record));
const itemsByCode = new Map(items.map((item) => [item.code, item]));

const fresh = makeFreshness();
const cached = makeFreshness({ fromCache: true });
const stale = makeFreshness({
  stale: true,
  fetchedAt: new Date(TEST_NOW.getTime() - 26 * 3600_000),
});
/** Rotated over the records so that every freshness footer meets every kind of record. */
const FRESHNESS = [fresh, cached, stale];
const freshnessFor = (index: number) => FRESHNESS[index % FRESHNESS.length] ?? fresh;

// ---------------------------------------------------------------------------------------------
// What every message must satisfy

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

function walk(value: unknown, visit: (node: Json) => void): void {
  if (Array.isArray(value)) {
    for (const child of value) walk(child, visit);
  } else if (isObject(value)) {
    visit(value);
    for (const child of Object.values(value)) walk(child, visit);
  }
}

/** Every string anywhere in the message (text, labels, values, ids, the fallback). */
function allStrings(message: SlackMessage): string[] {
  const strings = [message.text];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (isObject(value)) Object.values(value).forEach(collect);
  };
  collect(message.blocks);
  return strings;
}

/** What Slack shows or reads out: text objects, accessibility labels and the fallback. */
function shownTexts(message: SlackMessage): string[] {
  const texts = [message.text];
  walk(message.blocks, (node) => {
    const isText = node.type === 'plain_text' || node.type === 'mrkdwn';
    if (isText && typeof node.text === 'string') texts.push(node.text);
    if (typeof node.accessibility_label === 'string') texts.push(node.accessibility_label);
  });
  return texts;
}

/**
 * Bidi embeddings, overrides and isolates in ERP text would reorder the rest of the line,
 * our own figures included ("…override: 639 available" shown backwards in a notification).
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

interface Rendered {
  name: string;
  message: SlackMessage;
  /** Contact details that must not appear (in the blocks unless `reveal`, never in `text`). */
  secrets?: readonly string[];
  reveal?: boolean;
}

/** What is wrong with one message; empty when it is fine. */
function problemsOf({ name, message, secrets = [], reveal = false }: Rendered): string[] {
  const problems = checkMessageLimits(message).map((p) => `${name}: ${p}`);
  for (const text of [message.text, ...mrkdwnTexts(message)]) {
    const markup = foreignMarkup(text);
    if (markup.length > 0)
      problems.push(`${name}: markup ${markup.join(' ')} in ${text.slice(0, 80)}`);
  }
  if (shownTexts(message).some((text) => BIDI_CONTROL.test(text))) {
    problems.push(`${name}: a bidi control character in the text`);
  }
  const searched = reveal ? [message.text] : allStrings(message);
  for (const secret of secrets) {
    if (searched.some((s) => s.includes(secret))) {
      problems.push(`${name}: contact detail ${secret} ${reveal ? 'in the fallback' : 'shown'}`);
    }
  }
  const actionIds = new Set<string>();
  walk(message.blocks, (node) => {
    if (typeof node.action_id === 'string') {
      if (actionIds.has(node.action_id))
        problems.push(`${name}: action_id ${node.action_id} twice`);
      actionIds.add(node.action_id);
    }
    if (node.type !== 'button') return;
    const value = node.value;
    if (typeof value !== 'string' || value.length > MAX_VALUE_LENGTH || !decodeState(value).ok) {
      problems.push(
        `${name}: button ${String(node.action_id)} value ${String(value).slice(0, 80)}`,
      );
    }
  });
  return problems;
}

/** Renders lazily and checks each message as it comes, so memory stays flat. */
function sweep(messages: Iterable<Rendered>): { checked: number; problems: string[] } {
  let checked = 0;
  const problems: string[] = [];
  for (const rendered of messages) {
    checked += 1;
    problems.push(...problemsOf(rendered));
  }
  return { checked, problems };
}

/** A contact's details as a leak scan would find them: whole values, raw or escaped. */
function secretsOf(contact: {
  telephone: string;
  email: string;
  addressbook?: Contact['addressbook'];
}): string[] {
  const values = [
    contact.telephone,
    contact.email,
    ...(contact.addressbook ?? []).flatMap((p) => [p.telephone, p.mobile, p.email, p.email2]),
  ].filter((value) => value.length >= 8);
  return [...new Set(values.flatMap((value) => [value, escapeMrkdwn(value)]))];
}

// ---------------------------------------------------------------------------------------------
// Which records get every variant. Every record gets the variants its data shapes (branch
// views, people pages); the variants that only change buttons and breadcrumbs (shared, a BOM
// path, no Reveal) go to every fourth record and to every extreme one, to keep this quick.

const EVERY = 4;
const top = <T>(list: readonly T[], measure: (entry: T) => number, count = 5): T[] =>
  [...list].sort((a, b) => measure(b) - measure(a)).slice(0, count);
const stockedBranches = (item: Item) =>
  item.branches.filter(
    (b) => b.soh !== 0 || b.allocated !== 0 || b.onorder !== 0 || b.available !== 0,
  ).length;

const extremeItems = new Set<string>([
  ...HOSTILE_ITEM_CODES,
  ...ENCODING_CODES,
  ...[
    top(items, (i) => i.bom.length),
    top(items, stockedBranches),
    top(items, (i) => i.kits.length),
    top(items, (i) => i.description.length),
    top(items, (i) => i.code.length),
    top(items, (i) => -i.available),
    items.filter((i) => i.status_label !== 'Active').slice(0, 5),
  ].flatMap((list) => list.map((i) => i.code)),
]);
const extremeContacts = new Set<string>([
  ...FIXED_CONTACT_CODES,
  ...[
    top(contacts, (c) => c.addressbook.length),
    top(contacts, (c) => c.company.length),
    contacts.filter((c) => c.status_label !== 'Active').slice(0, 5),
  ].flatMap((list) => list.map((c) => c.code)),
]);

// ---------------------------------------------------------------------------------------------
// Paths for the drill-down: the chain of assemblies that leads to an item, as Expand builds it

const parentOf = new Map<string, string>();
for (const item of items) {
  for (const component of item.bom) {
    if (!parentOf.has(component.code)) parentOf.set(component.code, item.code);
  }
}

/** Codes from the top-level assembly down to the item's parent (at most 9, as Expand allows). */
function pathTo(code: string): string[] {
  const path: string[] = [];
  let parent = parentOf.get(code);
  while (parent !== undefined && path.length < 9 && !path.includes(parent)) {
    path.unshift(parent);
    parent = parentOf.get(parent);
  }
  return path.length > 0 ? path : ['PLANT-88'];
}

function* itemCards(subset: readonly Item[]): Generator<Rendered> {
  for (const [index, item] of subset.entries()) {
    const base = { item, freshness: freshnessFor(index), now: TEST_NOW };
    const every = index % EVERY === 0 || extremeItems.has(item.code);
    const path = pathTo(item.code);
    for (const branchView of ['best', 'all'] as const) {
      yield { name: `${item.code} ${branchView}`, message: itemCard({ ...base, branchView }) };
      if (!every) continue;
      yield {
        name: `${item.code} ${branchView} shared`,
        message: itemCard({ ...base, branchView, shared: true }),
      };
      for (const shared of [false, true]) {
        yield {
          name: `${item.code} ${branchView}${shared ? ' shared' : ''} path ${path.join('/')}`,
          message: itemCard({ ...base, branchView, shared, path }),
        };
      }
    }
  }
}

function* contactCards(subset: readonly Contact[]): Generator<Rendered> {
  for (const [index, contact] of subset.entries()) {
    const secrets = secretsOf(contact);
    const base = { contact, freshness: freshnessFor(index), now: TEST_NOW };
    const every = index % EVERY === 0 || extremeContacts.has(contact.code);
    const pages = pageCount(contact.addressbook.length);
    // One page past the end too: a stale "Next people" button after the addressbook shrank.
    for (let peoplePage = 0; peoplePage < (every ? pages + 1 : pages); peoplePage++) {
      const variants = every
        ? [
            { shared: false, canReveal: true },
            { shared: false, canReveal: false },
            { shared: true, canReveal: true },
            { shared: true, canReveal: false },
          ]
        : [
            { shared: false, canReveal: true },
            { shared: true, canReveal: true },
          ];
      for (const { shared, canReveal } of variants) {
        yield {
          name: `${contact.code} page ${peoplePage}${shared ? ' shared' : ''}${canReveal ? ' reveal' : ''}`,
          message: contactCard({ ...base, peoplePage, shared, canReveal }),
          secrets,
        };
      }
    }
    yield {
      name: `${contact.code} reveal answer`,
      message: contactReveal({ contact, now: TEST_NOW }),
      secrets,
      reveal: true,
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Search rows, built from the records the way the ERP's search builds them

const categoryName = new Map(data.categories.map((c) => [c.id, c.name]));
const supplierName = new Map(data.suppliers.map((s) => [s.id, s.name]));

const itemRows: ItemSearchRow[] = data.items.map(({ record, categoryId, supplierId, price }) =>
  ItemSearchRowSchema.parse({
    id: record.id,
    code: record.code,
    description: record.description,
    category_name: categoryName.get(categoryId) ?? '',
    price,
    supplier_name: supplierName.get(supplierId) ?? '',
    status_label: record.status_label,
    soh: record.soh,
    allocated: record.allocated,
    onorder: record.onorder,
    available: record.available,
    has_bom: record.has_bom,
    has_kit: record.has_kit,
  }),
);

const contactRows: ContactSearchRow[] = data.contacts.map(({ record }) =>
  ContactSearchRowSchema.parse({
    clientid: record.clientid,
    code: record.code,
    company: record.company,
    status: record.status,
    status_label: record.status_label,
    account_type: record.account_type,
    address4: record.address4,
    state: record.state,
    telephone: record.telephone,
    email: record.email,
    salesperson: record.salesperson,
    addressbook_count: record.addressbook.length,
  }),
);

/** Consecutive pages over all rows; every other one without a known total. */
function pagesOf<T>(rows: readonly T[], size: number): Page<T>[] {
  const pages: Page<T>[] = [];
  for (let offset = 0; offset < rows.length; offset += size) {
    const pageRows = rows.slice(offset, offset + size);
    const last = offset + size >= rows.length;
    pages.push({
      rows: pageRows,
      offset,
      pageSize: size,
      hasPrevious: offset > 0,
      hasNext: !last,
      total: pages.length % 2 === 0 ? rows.length : undefined,
    });
  }
  return pages;
}

/** The search words a person would type for a page: from its first row, hostile text and all. */
const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean).slice(0, 3);

function* itemSearchPages(): Generator<Rendered> {
  // Pages of 10 as the service serves them, and pages of 25 for a caller with a bigger page.
  for (const size of [SEARCH_PAGE_SIZE, 25]) {
    for (const [index, page] of pagesOf(itemRows, size).entries()) {
      const first = page.rows[0];
      const query = {
        words: wordsOf(first?.description ?? ''),
        ...(index % 3 === 1 ? { category: index } : {}),
        ...(index % 5 === 2 ? { supplier: 200 + index } : {}),
      };
      const notice =
        index % 4 === 0 ? `No item has the code ${first?.code ?? ''}. Closest matches:` : undefined;
      yield {
        name: `item search size ${size} at ${page.offset}`,
        message: itemSearchList({
          query,
          page,
          freshness: freshnessFor(index),
          now: TEST_NOW,
          notice,
        }),
      };
    }
  }
}

function* contactSearchPages(): Generator<Rendered> {
  for (const size of [SEARCH_PAGE_SIZE, 25]) {
    for (const [index, page] of pagesOf(contactRows, size).entries()) {
      const first = page.rows[0];
      const types = [undefined, 'client', 'supplier'] as const;
      const type = types[index % types.length];
      const query = { words: wordsOf(first?.company ?? ''), ...(type ? { type } : {}) };
      const notice =
        index % 4 === 0
          ? `No contact has the code ${first?.code ?? ''}. Closest matches:`
          : undefined;
      yield {
        name: `contact search size ${size} at ${page.offset}`,
        message: contactSearchList({
          query,
          page,
          freshness: freshnessFor(index),
          now: TEST_NOW,
          notice,
        }),
        secrets: page.rows.flatMap(secretsOf),
      };
    }
  }
}

/** Five items a message (the shortcut's maximum), with unknown and failed codes alongside. */
function* shortcutAnswers(): Generator<Rendered> {
  for (let start = 0; start < items.length; start += 5) {
    const found = items
      .slice(start, start + 5)
      .map((item, i) => ({ item, freshness: freshnessFor(start + i) }));
    const notFound = start % 10 === 0 ? ['WIDGET-404', '<!channel>', 'X&Y'] : [];
    const failed = start % 15 === 0 ? [{ code: '<@U123>', error: new Error('boom') }] : [];
    yield {
      name: `shortcut ${found.map((f) => f.item.code).join(',')}`,
      message: shortcutResults({ found, notFound, failed, now: TEST_NOW }),
    };
  }
}

// ---------------------------------------------------------------------------------------------

describe('the sandbox data, as parsed by the app', () => {
  it('holds the extremes this sweep is meant to cover', () => {
    const byCode = (code: string) => itemsByCode.get(code);
    expect(items.length).toBeGreaterThanOrEqual(2000);
    expect(contacts.length).toBeGreaterThanOrEqual(500);
    expect(Math.max(...items.map((i) => i.bom.length))).toBeGreaterThanOrEqual(80);
    expect(Math.max(...contacts.map((c) => c.addressbook.length))).toBeGreaterThanOrEqual(40);
    expect(byCode('EVIL-CHANNEL')?.description).toContain('<!channel>');
    expect(byCode('EVIL-MENTION')?.description).toContain('<@U123>');
    expect(byCode('LONG-DESC')?.description.length).toBeGreaterThan(3000);
    expect(contacts.find((c) => c.code === 'EVIL01')?.company).toContain('<!channel>');
    // ...and that they get every variant.
    for (const code of ['PLANT-88', 'LONG-DESC', 'EVIL-CHANNEL', 'ODD-UNICODE', 'WIDGET-9']) {
      expect(extremeItems.has(code)).toBe(true);
    }
    for (const code of ['BIGCO01', 'GOODWI02', 'EVIL01', 'INTL01', 'R&D/01']) {
      expect(extremeContacts.has(code)).toBe(true);
    }
  });

  it('the check catches a leak, foreign markup and a broken button', () => {
    const contact = contacts.find((c) => c.code === 'BIGCO01');
    if (!contact) throw new Error('BIGCO01 missing from the sandbox');
    const reveal = contactReveal({ contact, now: TEST_NOW });
    const leaked = problemsOf({
      name: 'reveal as a card',
      message: reveal,
      secrets: secretsOf(contact),
    });
    expect(leaked.some((p) => p.includes('contact detail'))).toBe(true);
    const forged: SlackMessage = {
      text: 'Hi <!channel>',
      blocks: [
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: 'a',
              text: { type: 'plain_text', text: 'x' },
              value: '{}',
            },
          ],
        },
      ],
    };
    const found = problemsOf({ name: 'forged', message: forged });
    expect(found.some((p) => p.includes('markup <!channel'))).toBe(true);
    expect(found.some((p) => p.includes('button a'))).toBe(true);
  });
});

describe('every sandbox record renders safely', () => {
  it('item cards: best and all branches, with and without a BOM path, private and shared', () => {
    const { checked, problems } = sweep(itemCards(items));
    const full = items.filter((item, i) => i % EVERY === 0 || extremeItems.has(item.code)).length;
    expect(checked).toBe(items.length * 2 + full * 6);
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('contact cards on every people page, shared or not, with and without Reveal; reveals', () => {
    const { checked, problems } = sweep(contactCards(contacts));
    expect(checked).toBeGreaterThan(contacts.length * 5);
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('item search pages over every item', () => {
    const { checked, problems } = sweep(itemSearchPages());
    expect(checked).toBe(Math.ceil(items.length / 10) + Math.ceil(items.length / 25));
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('contact search pages over every contact, redacted', () => {
    const { checked, problems } = sweep(contactSearchPages());
    expect(checked).toBe(Math.ceil(contacts.length / 10) + Math.ceil(contacts.length / 25));
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('shortcut answers over every item', () => {
    const { checked, problems } = sweep(shortcutAnswers());
    expect(checked).toBe(Math.ceil(items.length / 5));
    expect(problems.slice(0, 20)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The extreme records as a person reads them

function record<T extends { code: string }>(list: readonly T[], code: string): T {
  const found = list.find((entry) => entry.code === code);
  if (!found) throw new Error(`${code} missing from the sandbox`);
  return found;
}

const sectionTexts = (message: SlackMessage) =>
  message.blocks.flatMap((b) => (b.type === 'section' && b.text ? [b.text.text] : []));

describe('the extreme records, read as a person would', () => {
  const base = { freshness: fresh, now: TEST_NOW };

  it('a description longer than the header is cut there at a word and shown below it', () => {
    const item = record(items, 'LONG-DESC');
    const message = itemCard({ ...base, item });
    const [head, next] = message.blocks;
    const headText = head?.type === 'header' ? head.text.text : '';
    expect(headText).toMatch(/^LONG-DESC · Heavy duty industrial widget .* ratings…$/);
    expect(headText.length).toBeLessThanOrEqual(150);
    // The description again, longer, cut at a word too.
    const below = next?.type === 'section' ? (next.text?.text ?? '') : '';
    expect(below.length).toBeGreaterThan(headText.length * 3);
    expect(item.description.replace(/\s+/g, ' ')).toContain(below.slice(0, -1));
    expect(below).toMatch(/[a-z]…$/);
    // A description that fits the header is not repeated.
    const short = itemCard({ ...base, item: record(items, 'WIDGET-9') });
    expect(short.blocks[1]).toHaveProperty('fields');
  });

  it('a bidi override in a description cannot turn our own text round', () => {
    const item = record(items, 'ODD-UNICODE');
    expect(item.description).toContain('\u202E');
    const card = itemCard({ ...base, item });
    expect(card.text).toMatch(/right-to-left override: [\d,]+ available/);
    const answer = shortcutResults({
      found: [{ item, freshness: fresh }],
      notFound: [],
      failed: [],
      now: TEST_NOW,
    });
    expect(answer.text).not.toContain('\u202E');
  });

  it('the 86-component BOM shows as many as fit and says how many are left out', () => {
    const item = record(items, 'PLANT-88');
    const text = sectionTexts(itemCard({ ...base, item })).join('\n');
    const shownLines = text.split('\n').filter((line) => /^`[^`]+` .* · qty /.test(line)).length;
    expect(shownLines).toBeGreaterThan(40);
    expect(text).toContain(`_+${item.bom.length - shownLines} more components not shown_`);
    expect(text).toContain(`*Bill of materials* · ${item.bom.length} components`);
  });

  it('the 40-person addressbook pages through everyone exactly once', () => {
    const contact = record(contacts, 'BIGCO01');
    expect(contact.addressbook).toHaveLength(40);
    const pages = Array.from({ length: 5 }, (_, peoplePage) =>
      sectionTexts(contactCard({ ...base, contact, canReveal: true, peoplePage })).join('\n'),
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
