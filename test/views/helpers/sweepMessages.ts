/**
 * Every message the sandbox sweep checks, rendered lazily from the sweep's data so memory
 * stays flat: item cards (best and all branches, top level and drilled down, private and
 * shared), every page of every contact card and every reveal answer, every search page and
 * shortcut answers.
 */
import type { Contact, Item } from '../../../src/erp/schemas.js';
import { type Page, SEARCH_PAGE_SIZE } from '../../../src/lookup/types.js';
import { contactCard, contactReveal } from '../../../src/views/contactCard.js';
import { itemCard } from '../../../src/views/itemCard.js';
import { pageCount } from '../../../src/views/people.js';
import { contactSearchList, itemSearchList } from '../../../src/views/searchLists.js';
import { shortcutResults } from '../../../src/views/shortcut.js';
import { TEST_NOW } from '../../helpers/builders.js';
import { type Rendered, secretsOf } from './sweepChecks.js';
import {
  contactRows,
  EVERY,
  extremeContacts,
  extremeItems,
  freshnessFor,
  itemRows,
  items,
} from './sweepData.js';

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

export function* itemCards(subset: readonly Item[]): Generator<Rendered> {
  for (const [index, item] of subset.entries()) {
    // "Sandbox data" and SHARE_COST make the footer and the shared card their longest.
    const base = {
      item,
      freshness: freshnessFor(index),
      now: TEST_NOW,
      sandbox: true,
      internalFigures: true,
    };
    const every = index % EVERY === 0 || extremeItems.has(item.code);
    const path = pathTo(item.code);
    for (const branchView of ['best', 'all'] as const) {
      yield { name: `${item.code} ${branchView}`, message: itemCard({ ...base, branchView }) };
      if (!every) continue;
      yield {
        name: `${item.code} ${branchView} shared`,
        message: itemCard({ ...base, branchView, shared: true, shareCost: index % 2 === 0 }),
      };
      yield {
        name: `${item.code} ${branchView} last branch page`,
        message: itemCard({ ...base, branchView, branchPage: 1000, pathPages: [3] }),
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

export function* contactCards(subset: readonly Contact[]): Generator<Rendered> {
  for (const [index, contact] of subset.entries()) {
    const secrets = secretsOf(contact);
    const base = {
      contact,
      freshness: freshnessFor(index),
      now: TEST_NOW,
      sandbox: true,
      internalFigures: true,
    };
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
// Search pages over the search rows, and shortcut answers

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

export function* itemSearchPages(): Generator<Rendered> {
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
          fromCode: notice !== undefined,
          sandbox: true,
        }),
      };
    }
  }
}

export function* contactSearchPages(): Generator<Rendered> {
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
          fromCode: notice !== undefined,
          sandbox: true,
        }),
        secrets: page.rows.flatMap(secretsOf),
      };
    }
  }
}

/** Five items a message (the shortcut's maximum), with unknown and failed codes alongside. */
export function* shortcutAnswers(): Generator<Rendered> {
  for (let start = 0; start < items.length; start += 5) {
    const found = items
      .slice(start, start + 5)
      .map((item, i) => ({ item, freshness: freshnessFor(start + i) }));
    const notFound = start % 10 === 0 ? ['WIDGET-404', '<!channel>', 'X&Y'] : [];
    const failed = start % 15 === 0 ? [{ code: '<@U123>', error: new Error('boom') }] : [];
    yield {
      name: `shortcut ${found.map((f) => f.item.code).join(',')}`,
      message: shortcutResults({ found, notFound, failed, now: TEST_NOW, sandbox: true }),
    };
  }
}
