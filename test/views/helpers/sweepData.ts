/**
 * The data the sandbox sweep renders: the whole sandbox data set (about 2,000 items and 600
 * contacts, the same records the sandbox ERP serves), parsed through the app's own schemas,
 * with the search rows the ERP's search would build from them and the extreme records that
 * get every variant. Generated once when a test file first imports this module (vitest
 * evaluates modules once per test file), never per test.
 */
import {
  type Contact,
  ContactSchema,
  type ContactSearchRow,
  ContactSearchRowSchema,
  type Item,
  ItemSchema,
  type ItemSearchRow,
  ItemSearchRowSchema,
} from '../../../src/erp/schemas.js';
import { ENCODING_CODES, HOSTILE_ITEM_CODES } from '../../../src/sandbox/dataFixed.js';
import { FIXED_CONTACT_CODES } from '../../../src/sandbox/dataFixedContacts.js';
import { DEFAULT_SANDBOX_SEED, generateSandboxData } from '../../../src/sandbox/index.js';
import { contactSearchRow, itemSearchRow } from '../../../src/sandbox/render.js';
import { makeFreshness, TEST_NOW } from '../../helpers/builders.js';

const data = generateSandboxData(DEFAULT_SANDBOX_SEED);
export const items: Item[] = data.items.map((entry) => ItemSchema.parse(entry.record));
export const contacts: Contact[] = data.contacts.map((entry) => ContactSchema.parse(entry.record));
export const itemsByCode = new Map(items.map((item) => [item.code, item]));

export const fresh = makeFreshness();
const cached = makeFreshness({ fromCache: true });
const stale = makeFreshness({
  stale: true,
  fetchedAt: new Date(TEST_NOW.getTime() - 26 * 3600_000),
});
/** Rotated over the records so that every freshness footer meets every kind of record. */
const FRESHNESS = [fresh, cached, stale];
export const freshnessFor = (index: number) => FRESHNESS[index % FRESHNESS.length] ?? fresh;

// ---------------------------------------------------------------------------------------------
// Which records get every variant. Every record gets the variants its data shapes (branch
// views, people pages); the variants that only change buttons and breadcrumbs (shared, a BOM
// path, no Reveal) go to every fourth record and to every extreme one, to keep this quick.

export const EVERY = 4;
export const top = <T>(list: readonly T[], measure: (entry: T) => number, count = 5): T[] =>
  [...list].sort((a, b) => measure(b) - measure(a)).slice(0, count);
const stockedBranches = (item: Item) =>
  item.branches.filter(
    (b) => b.soh !== 0 || b.allocated !== 0 || b.onorder !== 0 || b.available !== 0,
  ).length;

export const extremeItems = new Set<string>([
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
export const extremeContacts = new Set<string>([
  ...FIXED_CONTACT_CODES,
  ...[
    top(contacts, (c) => c.addressbook.length),
    top(contacts, (c) => c.company.length),
    contacts.filter((c) => c.status_label !== 'Active').slice(0, 5),
  ].flatMap((list) => list.map((c) => c.code)),
]);

// ---------------------------------------------------------------------------------------------
// Search rows, built by the sandbox's own search rendering

export const itemRows: ItemSearchRow[] = data.items.map((item) =>
  ItemSearchRowSchema.parse(itemSearchRow(item)),
);

export const contactRows: ContactSearchRow[] = data.contacts.map((contact) =>
  ContactSearchRowSchema.parse(contactSearchRow(contact)),
);
