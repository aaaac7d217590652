/**
 * `/stock blue widget` answered from the index with the ERP's own rules (docs/erp-api.md,
 * searchItems): every keyword must occur in the code or the description (substring, any
 * case); ranked exact code, code prefix, then the rest; ties by code then id. A full scan,
 * cheap at the index's size, and exactly the ERP's answer, which a word index is not (it
 * cannot find "dget" inside "widget").
 */
import type { ItemSearchRow } from '../erp/schemas.js';
import { normaliseWords } from '../lookup/resources.js';
import type { ItemQuery, Page } from '../lookup/types.js';
import type { CatalogueItem } from './records.js';
import type { CatalogueStore } from './store.js';

export interface IndexedPage {
  page: Page<ItemSearchRow>;
  /** The oldest figures on the page: what the list must say its age is. */
  oldestSeenAt: number;
}

export function matchItems(store: CatalogueStore, query: ItemQuery): CatalogueItem[] | undefined {
  const words = normaliseWords(query.words);
  let categoryName: string | undefined;
  if (query.category !== undefined) {
    categoryName = store.categoryName(query.category);
    // An id the index never learned: only the ERP knows what it means.
    if (categoryName === undefined) return undefined;
  }
  // A supplier id only the ERP knows (the crawl learns names, not ids): the ERP answers.
  let supplierName: string | undefined;
  if (query.supplier !== undefined) {
    supplierName = store.supplierName(query.supplier);
    if (supplierName === undefined) return undefined;
  }
  const whole = words.join(' ');
  const ranked: Array<{ item: CatalogueItem; rank: number }> = [];
  const found = store.matching((itemCode, itemDescription, category, supplier) => {
    if (categoryName !== undefined && category !== categoryName) return false;
    if (supplierName !== undefined && supplier() !== supplierName) return false;
    const code = itemCode.toLowerCase();
    const description = itemDescription.toLowerCase();
    return words.every((w) => code.includes(w) || description.includes(w));
  });
  for (const item of found) {
    const code = item.code.toLowerCase();
    const exact = code === whole || words.some((w) => code === w);
    const prefix = words.some((w) => code.startsWith(w));
    ranked.push({ item, rank: exact ? 0 : prefix ? 1 : 2 });
  }
  ranked.sort(
    (a, b) =>
      a.rank - b.rank ||
      (a.item.code < b.item.code ? -1 : a.item.code > b.item.code ? 1 : 0) ||
      a.item.id - b.item.id,
  );
  return ranked.map(({ item }) => item);
}

/** One page of an index search, or undefined when the index cannot answer it faithfully. */
export function indexedPage(
  store: CatalogueStore,
  query: ItemQuery,
  offset: number,
  pageSize: number,
): IndexedPage | undefined {
  const matches = matchItems(store, query);
  if (!matches) return undefined;
  const slice = matches.slice(offset, offset + pageSize);
  const rows: ItemSearchRow[] = [];
  let oldestSeenAt = Number.POSITIVE_INFINITY;
  for (const item of slice) {
    // Seen only as a full record: no sell price to show, so the ERP answers instead.
    if (item.price === undefined) return undefined;
    rows.push(toRow(item, item.price));
    oldestSeenAt = Math.min(oldestSeenAt, item.seenAt);
  }
  return {
    page: {
      rows,
      offset,
      pageSize,
      hasPrevious: offset > 0,
      hasNext: offset + pageSize < matches.length,
      total: matches.length,
    },
    oldestSeenAt: Number.isFinite(oldestSeenAt) ? oldestSeenAt : Date.now(),
  };
}

function toRow(item: CatalogueItem, price: number): ItemSearchRow {
  return {
    id: item.id,
    code: item.code,
    description: item.description,
    category_name: item.category,
    price,
    supplier_name: item.supplier,
    status_label: item.status,
    soh: item.soh,
    allocated: item.allocated,
    onorder: item.onorder,
    available: item.available,
    has_bom: item.hasBom,
    has_kit: item.hasKit,
  };
}
