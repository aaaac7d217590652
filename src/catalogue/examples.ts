/**
 * Help's examples from the connected ERP's own data: codes and a search word from the items
 * the catalogue index holds (people's lookups and the crawl), a category id it learned.
 * Contacts are never indexed, so their examples stay placeholders.
 */
import type { HelpExamples } from '../views/help.js';
import type { CatalogueStore } from './store.js';

/** Items read to find examples: help must answer at once, whatever the index's size. */
const SCAN = 2_000;
const WANTED = 2;

/** A word worth searching: letters only, long enough to mean something. */
const SEARCHABLE = /^\p{L}{4,20}$/u;

export function catalogueExamples(store: CatalogueStore): HelpExamples | undefined {
  const itemCodes: string[] = [];
  const itemSearches: string[] = [];
  let itemCategory: number | undefined;
  let read = 0;
  for (const item of store.all()) {
    read += 1;
    if (read > SCAN) break;
    // An item people can act on: one that is enabled and holds stock makes the best example.
    if (item.status === 'Disabled' || item.available <= 0) continue;
    // Codes with spaces or backticks would be read as several words or end the code span.
    if (itemCodes.length < WANTED && /^[^\s`]{1,40}$/.test(item.code)) itemCodes.push(item.code);
    const word = item.description
      .split(/\s+/)
      .find((w) => SEARCHABLE.test(w))
      ?.toLowerCase();
    if (word && itemSearches.length < WANTED && !itemSearches.includes(word)) {
      itemSearches.push(word);
    }
    if (itemCategory === undefined && item.categoryId !== undefined) itemCategory = item.categoryId;
    if (itemCodes.length >= WANTED && itemSearches.length >= WANTED && itemCategory !== undefined) {
      break;
    }
  }
  if (itemCodes.length === 0 && itemSearches.length === 0) return undefined;
  return {
    itemCodes,
    itemSearches,
    contactCodes: [],
    contactSearches: [],
    ...(itemCategory === undefined ? {} : { itemCategory }),
  };
}

/** The sandbox knows its categories and suppliers: the index has their ids from the start. */
export function seedNames(
  store: CatalogueStore,
  names: {
    categories: ReadonlyArray<{ id: number; name: string }>;
    suppliers: ReadonlyArray<{ id: number; name: string }>;
  },
): void {
  for (const category of names.categories) store.learnCategory(category.id, category.name);
  for (const supplier of names.suppliers) store.learnSupplier(supplier.id, supplier.name);
}
