/**
 * What the catalogue index keeps and hands out (store.ts is the index itself): one item as it
 * is kept, the counts its lists show, the snapshot it is shared and saved as.
 */
/** One item as the index keeps it: a search row's fields plus what the crawl learned. */
export interface CatalogueItem {
  id: number;
  code: string;
  description: string;
  category: string;
  /** Learned from a search filtered by category (the ERP's rows carry only the name). */
  categoryId: number | undefined;
  supplier: string;
  status: string;
  /** Undefined when only the full record was seen (it carries cost, not price). */
  price: number | undefined;
  soh: number;
  allocated: number;
  onorder: number;
  available: number;
  hasBom: boolean;
  hasKit: boolean;
  /** When the ERP produced these figures (ms). */
  seenAt: number;
}

/** A supplier the index knows: its name from items, its id once learned. */
export interface SupplierCount {
  name: string;
  /** Undefined until a supplier-filtered search or an item's supplier codes taught the id. */
  id: number | undefined;
  items: number;
}

export interface CategoryCount {
  name: string;
  /** Undefined until a search filtered by category taught us the id. */
  id: number | undefined;
  items: number;
}

/** What a snapshot holds: enough to rebuild the index on another replica or after a restart. */
export interface CatalogueSnapshot {
  version: 1;
  items: CatalogueItem[];
  categories: Array<[number, string]>;
  /** Supplier ids and names (absent in snapshots written before suppliers were learned). */
  suppliers?: Array<[number, string]>;
  state: CatalogueState;
}

export interface CatalogueState {
  /** When the last crawl pass that reached its end finished (ms), if ever. */
  lastFullPassAt: number | undefined;
  /** The ERP's total item count, when a search without words told us. */
  knownTotal: number | undefined;
  /** Does the ERP accept a search without words? Undefined until probed. */
  wordless: boolean | undefined;
}

export interface CatalogueStoreOptions {
  /**
   * Most items held. Once reached, items not yet held are turned away (counted in
   * `turnedAway`) while those held keep being refreshed; the index is then `full` and never
   * complete, so word searches go to the ERP. At least 1; default no bound (the app passes
   * CATALOGUE_MAX_ITEMS, 20,000 unless set).
   */
  maxItems?: number;
}
