/**
 * The catalogue index: the items the app has seen (search rows, full records, the crawl), up
 * to CATALOGUE_MAX_ITEMS, searchable by prefix and fuzzily on codes and description words.
 *
 * The full-text part is FlexSearch (`tokenize: 'forward'` gives prefixes, the LatinBalance
 * encoder folds case, accents and letters that sound alike, so "sprok" finds "Sprocket").
 * The search itself, and why FlexSearch, is search.ts.
 * Items are kept in columns (typed arrays for numbers, one copy of each category, supplier and
 * status name) rather than one object each, which is most of what the index saves.
 * People's lookups teach it every item they read (`feedCatalogue`, at the end).
 *
 * Contacts are never indexed: they hold personal data.
 */
import { z } from 'zod';
import type { ErpEvents } from '../erp/events.js';
import type { Item, ItemSearchRow } from '../erp/schemas.js';
import { Names, NUMBER_COLUMNS, type NumberColumn, newNumberColumns } from './columns.js';
import type {
  CatalogueItem,
  CatalogueSnapshot,
  CatalogueState,
  CatalogueStoreOptions,
  CategoryCount,
  SupplierCount,
} from './records.js';
import { SlotSearch, type SuggestOptions } from './search.js';

const HAS_BOM = 1;
const HAS_KIT = 2;

export class CatalogueStore {
  /**
   * Items are kept in columns, one slot each, in the order they were first seen: per-item
   * objects with fifteen keys cost about 200 bytes an item more (see the figures above).
   * `get`, `all` and `suggest` build CatalogueItem objects only for what they answer.
   */
  private readonly slots = new Map<number, number>();
  private ids = new Float64Array(1_024);
  private readonly codeOf: string[] = [];
  private readonly descriptionOf: string[] = [];
  private readonly names = new Names();
  private categoryOf = new Uint32Array(1_024);
  private supplierOf = new Uint32Array(1_024);
  private statusOf = new Uint32Array(1_024);
  private flags = new Uint8Array(1_024);
  private numbers = newNumberColumns(1_024);
  private readonly categoryNames = new Map<number, string>();
  private readonly supplierNames = new Map<number, string>();
  private readonly search = new SlotSearch({
    codeOf: this.codeOf,
    descriptionOf: this.descriptionOf,
    slots: this.slots,
    names: this.names,
    categoryAt: (slot) => this.categoryOf[slot] ?? 0,
  });
  state: CatalogueState = { lastFullPassAt: undefined, knownTotal: undefined, wordless: undefined };
  readonly maxItems: number;
  private turned = 0;

  constructor(options: CatalogueStoreOptions = {}) {
    const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
    if (maxItems !== Number.POSITIVE_INFINITY && !(Number.isInteger(maxItems) && maxItems >= 1)) {
      throw new RangeError('maxItems must be a whole number of at least 1');
    }
    this.maxItems = maxItems;
  }

  get size(): number {
    return this.slots.size;
  }

  /** Items not indexed because the index held `maxItems` already (since the last load). */
  get turnedAway(): number {
    return this.turned;
  }

  /** True once an item was turned away: the index misses items and cannot be complete. */
  get full(): boolean {
    return this.turned > 0;
  }

  /**
   * Adds or refreshes search rows; returns how many were new to the index. A search filtered
   * by supplier teaches that supplier's id when every row names the same supplier (an ERP may
   * match other supplier codes than the primary one: mixed names teach nothing).
   */
  addRows(
    rows: readonly ItemSearchRow[],
    seenAt: number,
    categoryId?: number,
    supplierId?: number,
  ): number {
    if (supplierId !== undefined) {
      const names = new Set(rows.map((row) => row.supplier_name).filter(Boolean));
      const [only] = names;
      if (names.size === 1 && only) this.learnSupplier(supplierId, only);
    }
    let added = 0;
    for (const row of rows) {
      if (categoryId !== undefined && row.category_name) {
        this.categoryNames.set(categoryId, row.category_name);
      }
      const fresh = this.put({
        id: row.id,
        code: row.code,
        description: row.description,
        category: row.category_name,
        categoryId: categoryId ?? this.known(row.id, 'categoryId'),
        supplier: row.supplier_name,
        status: row.status_label,
        price: row.price,
        soh: row.soh,
        allocated: row.allocated,
        onorder: row.onorder,
        available: row.available,
        hasBom: row.has_bom,
        hasKit: row.has_kit,
        seenAt,
      });
      if (fresh) added += 1;
    }
    return added;
  }

  /** A full record (getItem): its figures are the freshest; price stays from the last row. */
  addItem(item: Item, seenAt: number): void {
    for (const supplier of supplierIdsOf(item.supplierCodes)) {
      this.learnSupplier(supplier.id, supplier.name);
    }
    this.put({
      id: item.id,
      code: item.code,
      description: item.description,
      category: item.category,
      categoryId: this.known(item.id, 'categoryId') ?? this.categoryIdOf(item.category),
      supplier: item.primarysupplier,
      status: item.status_label,
      price: this.known(item.id, 'price'),
      soh: item.soh,
      allocated: item.allocated,
      onorder: item.onorder,
      available: item.available,
      hasBom: item.has_bom,
      hasKit: item.has_kit,
      seenAt,
    });
  }

  /** Puts back an item kept elsewhere (fresher than a loaded snapshot). */
  restore(item: CatalogueItem): void {
    this.put(item);
  }

  learnCategory(id: number, name: string): void {
    if (name) this.categoryNames.set(id, name);
  }

  learnSupplier(id: number, name: string): void {
    const trimmed = name.trim();
    if (trimmed && Number.isSafeInteger(id) && id > 0) this.supplierNames.set(id, trimmed);
  }

  /** The suppliers seen on items or learned with an id, with item counts, by name. */
  suppliers(): SupplierCount[] {
    return this.countsByName(this.supplierOf, this.supplierNames);
  }

  get(id: number): CatalogueItem | undefined {
    const slot = this.slots.get(id);
    return slot === undefined ? undefined : this.itemAt(slot);
  }

  /** The item with this code, in any case (`widget-9` is WIDGET-9); the first seen of several. */
  byCodeOf(code: string): CatalogueItem | undefined {
    const slot = this.search.slotOfCode(code);
    return slot === undefined ? undefined : this.itemAt(slot);
  }

  /**
   * The items, in the order first seen, whose code, description and category pass `keep`:
   * a scan of the columns that builds only the items kept (`/stock` words read it).
   */
  matching(
    keep: (code: string, description: string, category: string, supplier: () => string) => boolean,
  ): CatalogueItem[] {
    const kept: CatalogueItem[] = [];
    for (let slot = 0; slot < this.codeOf.length; slot += 1) {
      const category = this.names.name(this.categoryOf[slot] ?? 0);
      // The supplier's name only when asked: most scans read none.
      const supplier = () => this.names.name(this.supplierOf[slot] ?? 0);
      if (keep(this.codeOf[slot] ?? '', this.descriptionOf[slot] ?? '', category, supplier)) {
        kept.push(this.itemAt(slot));
      }
    }
    return kept;
  }

  /** Every known code, in the order first seen (nothing else is built). */
  *knownCodes(): IterableIterator<string> {
    for (let slot = 0; slot < this.codeOf.length; slot += 1) yield this.codeOf[slot] ?? '';
  }

  /** Every item, in the order first seen; each one built as it is reached. */
  *all(): IterableIterator<CatalogueItem> {
    for (let slot = 0; slot < this.codeOf.length; slot += 1) yield this.itemAt(slot);
  }

  /**
   * Typeahead: items whose code or description words start with what was typed (every word
   * must match; fuzzy per the encoder), optionally in one category. Exact and prefix code
   * matches come first, like the ERP's own ranking.
   */
  suggest(text: string, options: SuggestOptions): CatalogueItem[] {
    return this.search.suggest(text, options).map((slot) => this.itemAt(slot));
  }

  /** The categories seen, with their ids where known and their item counts, by name. */
  categories(): CategoryCount[] {
    return this.countsByName(this.categoryOf, this.categoryNames);
  }

  /** The name of a supplier learned with its id (the sandbox's, or a filtered search's). */
  supplierName(id: number): string | undefined {
    return this.supplierNames.get(id);
  }

  categoryName(id: number): string | undefined {
    return this.categoryNames.get(id);
  }

  categoryIdOf(name: string): number | undefined {
    for (const [id, known] of this.categoryNames) if (known === name) return id;
    return undefined;
  }

  snapshot(): CatalogueSnapshot {
    return {
      version: 1,
      items: [...this.all()],
      categories: [...this.categoryNames],
      suppliers: [...this.supplierNames],
      state: { ...this.state },
    };
  }

  /** Replaces everything with a snapshot (another replica's crawl, or the file at start). */
  load(snapshot: CatalogueSnapshot): void {
    this.slots.clear();
    this.turned = 0;
    this.codeOf.length = 0;
    this.descriptionOf.length = 0;
    this.search.clear();
    this.categoryNames.clear();
    this.supplierNames.clear();
    for (const [id, name] of snapshot.categories) this.categoryNames.set(id, name);
    for (const [id, name] of snapshot.suppliers ?? []) this.supplierNames.set(id, name);
    this.search.bulk(() => {
      for (const item of snapshot.items) this.put(item);
    });
    this.state = { ...snapshot.state };
  }

  /** Items per name of a column (category, supplier), with the ids learned for names. */
  private countsByName(
    column: Uint32Array,
    learned: ReadonlyMap<number, string>,
  ): Array<{ name: string; id: number | undefined; items: number }> {
    const counts = new Map<string, number>();
    for (let slot = 0; slot < this.codeOf.length; slot += 1) {
      const name = this.names.name(column[slot] ?? 0);
      if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const ids = new Map<string, number>();
    for (const [id, name] of learned) {
      if (!ids.has(name)) ids.set(name, id);
      if (!counts.has(name)) counts.set(name, 0);
    }
    return [...counts]
      .map(([name, items]) => ({ name, id: ids.get(name), items }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** One number of a known item, undefined when the item or the number is unknown. */
  private known(id: number, column: NumberColumn): number | undefined {
    const slot = this.slots.get(id);
    return slot === undefined ? undefined : orUndefined(this.numbers[column][slot]);
  }

  private itemAt(slot: number): CatalogueItem {
    const n = this.numbers;
    const flags = this.flags[slot] ?? 0;
    return {
      id: this.ids[slot] ?? 0,
      code: this.codeOf[slot] ?? '',
      description: this.descriptionOf[slot] ?? '',
      category: this.names.name(this.categoryOf[slot] ?? 0),
      categoryId: orUndefined(n.categoryId[slot]),
      supplier: this.names.name(this.supplierOf[slot] ?? 0),
      status: this.names.name(this.statusOf[slot] ?? 0),
      price: orUndefined(n.price[slot]),
      soh: n.soh[slot] ?? 0,
      allocated: n.allocated[slot] ?? 0,
      onorder: n.onorder[slot] ?? 0,
      available: n.available[slot] ?? 0,
      hasBom: (flags & HAS_BOM) !== 0,
      hasKit: (flags & HAS_KIT) !== 0,
      seenAt: n.seenAt[slot] ?? 0,
    };
  }

  /** Returns true when the item was not in the index before (and is now). */
  private put(item: CatalogueItem): boolean {
    let slot = this.slots.get(item.id);
    const known = slot !== undefined;
    if (!known && this.slots.size >= this.maxItems) {
      this.turned += 1;
      return false;
    }
    const before = slot === undefined ? undefined : this.codeOf[slot];
    const reindex =
      slot === undefined || before !== item.code || this.descriptionOf[slot] !== item.description;
    if (slot === undefined) {
      slot = this.codeOf.length;
      this.grow(slot + 1);
      this.slots.set(item.id, slot);
    }
    this.ids[slot] = item.id;
    this.codeOf[slot] = item.code;
    this.descriptionOf[slot] = item.description;
    this.categoryOf[slot] = this.names.numberOf(item.category);
    this.supplierOf[slot] = this.names.numberOf(item.supplier);
    this.statusOf[slot] = this.names.numberOf(item.status);
    this.flags[slot] = (item.hasBom ? HAS_BOM : 0) | (item.hasKit ? HAS_KIT : 0);
    for (const column of NUMBER_COLUMNS) this.numbers[column][slot] = item[column] ?? Number.NaN;
    // Figures alone (every ERP answer refreshes them) leave the search as it is.
    if (reindex) this.search.changed(item.id, slot, before);
    return !known;
  }

  /** Makes room for `count` slots, doubling the typed arrays when they are full. */
  private grow(count: number): void {
    if (count <= this.flags.length) return;
    const capacity = Math.max(count, this.flags.length * 2);
    const wider = <T extends Float64Array | Uint32Array | Uint8Array>(
      old: T,
      make: (n: number) => T,
    ) => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.ids = wider(this.ids, (n) => new Float64Array(n));
    this.categoryOf = wider(this.categoryOf, (n) => new Uint32Array(n));
    this.supplierOf = wider(this.supplierOf, (n) => new Uint32Array(n));
    this.statusOf = wider(this.statusOf, (n) => new Uint32Array(n));
    this.flags = wider(this.flags, (n) => new Uint8Array(n));
    const numbers = newNumberColumns(capacity);
    for (const column of NUMBER_COLUMNS) numbers[column].set(this.numbers[column]);
    this.numbers = numbers;
  }
}

function orUndefined(value: number | undefined): number | undefined {
  return value === undefined || Number.isNaN(value) ? undefined : value;
}

const id = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number),
]);
const name = z.string().trim().min(1).max(200);

/** The id and name fields an ERP is likely to use, in the order they are tried. */
const ID_KEYS = ['supplier_id', 'supplierId', 'supplierid', 'supplier'] as const;
const NAME_KEYS = ['supplier_name', 'supplierName', 'suppliername', 'supplier', 'name'] as const;

const Element = z.record(z.string(), z.unknown());

function first<T>(
  record: Record<string, unknown>,
  keys: readonly string[],
  schema: z.ZodType<T>,
): T | undefined {
  for (const key of keys) {
    const parsed = schema.safeParse(record[key]);
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

/**
 * Supplier ids from an item's `supplierCodes`: the (id, name) pairs the elements carry; never
 * throws. The ERP documents no shape for their elements (the sample shows an empty list); an
 * element that names both a supplier id and a supplier name teaches the index that pair, so
 * `supplier:WORD` can be resolved to the id the search filter takes. Anything else (strings,
 * codes alone, names alone) teaches nothing.
 */
export function supplierIdsOf(codes: readonly unknown[]): Array<{ id: number; name: string }> {
  const found: Array<{ id: number; name: string }> = [];
  for (const element of codes.slice(0, 50)) {
    const record = Element.safeParse(element);
    if (!record.success) continue;
    const supplierId = first(record.data, ID_KEYS, id);
    const supplierName = first(
      record.data,
      NAME_KEYS,
      name.refine((v) => !/^\d+$/.test(v)),
    );
    if (supplierId !== undefined && supplierName !== undefined) {
      found.push({ id: supplierId, name: supplierName });
    }
  }
  return found;
}

/**
 * Every item record and item search row people's lookups read also feeds the index, at no
 * extra cost. Contacts never do (personal data); the crawl adds its own rows.
 */
export function feedCatalogue(events: ErpEvents, store: CatalogueStore, now: () => number): void {
  events.on('itemRead', ({ item, background }) => {
    if (!background) store.addItem(item, now());
  });
  events.on('itemRowsRead', ({ rows, params, background }) => {
    if (!background) store.addRows(rows, now(), params.category, params.supplier);
  });
}
