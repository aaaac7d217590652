/**
 * The catalogue index: the items the app has seen (search rows, full records, the crawl), up
 * to CATALOGUE_MAX_ITEMS, searchable by prefix and fuzzily on codes and description words.
 *
 * The full-text part is FlexSearch (`tokenize: 'forward'` gives prefixes, the LatinBalance
 * encoder folds case, accents and letters that sound alike, so "sprok" finds "Sprocket").
 * It was chosen over MiniSearch and Orama because they score every match, so a three-letter
 * prefix that matches a tenth of the catalogue costs tens of milliseconds (the comparison and
 * the index's memory are in docs/benchmarks.md). FlexSearch's slow cases (several words,
 * digits) are avoided below: code prefixes use a sorted array, extra words are checked here.
 * Its fuzziness is the encoder's (sound-alike letters), not edit distance: "gaskt" misses.
 * Items are kept in columns (typed arrays for numbers, one copy of each category, supplier and
 * status name) rather than one object each, which is most of what the index saves.
 *
 * Contacts are never indexed: they hold personal data.
 */
import FlexSearch from 'flexsearch';
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
import { editDistance } from './suggest.js';
import { supplierIdsOf } from './supplierCodes.js';

export type {
  CatalogueItem,
  CatalogueSnapshot,
  CatalogueState,
  CatalogueStoreOptions,
  CategoryCount,
  SupplierCount,
} from './records.js';

/** Candidates read from FlexSearch for one typed text; the answer is the best 25 of them. */
const CANDIDATES = 1_000;

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
  private index = newIndex();
  /** Slots in code order (lower case), for the binary search of code prefixes. */
  private codes: Uint32Array | undefined;
  private codesAt = -1;
  private codesBuiltAt = 0;
  /** Bumped when a code or description changes: the sorted code list is rebuilt after it. */
  private revision = 0;
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
    const counts = new Map<string, number>();
    for (let slot = 0; slot < this.codeOf.length; slot += 1) {
      const supplier = this.names.name(this.supplierOf[slot] ?? 0);
      if (supplier) counts.set(supplier, (counts.get(supplier) ?? 0) + 1);
    }
    const ids = new Map<string, number>();
    for (const [id, name] of this.supplierNames) {
      if (!ids.has(name)) ids.set(name, id);
      if (!counts.has(name)) counts.set(name, 0);
    }
    return [...counts]
      .map(([name, items]) => ({ name, id: ids.get(name), items }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  get(id: number): CatalogueItem | undefined {
    const slot = this.slots.get(id);
    return slot === undefined ? undefined : this.itemAt(slot);
  }

  /** A scan (about a millisecond per 100,000 items): rare, so no second map costs memory. */
  byCodeOf(code: string): CatalogueItem | undefined {
    const wanted = code.toLowerCase();
    const count = this.codeOf.length;
    for (let slot = 0; slot < count; slot += 1) {
      if (this.codeOf[slot]?.toLowerCase() === wanted) return this.itemAt(slot);
    }
    return undefined;
  }

  /**
   * The items, in the order first seen, whose code, description and category pass `keep`:
   * a scan of the columns that builds only the items kept (`/stock` words read it).
   */
  matching(
    keep: (code: string, description: string, category: string) => boolean,
  ): CatalogueItem[] {
    const kept: CatalogueItem[] = [];
    for (let slot = 0; slot < this.codeOf.length; slot += 1) {
      const category = this.names.name(this.categoryOf[slot] ?? 0);
      if (keep(this.codeOf[slot] ?? '', this.descriptionOf[slot] ?? '', category)) {
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
  suggest(text: string, options: { category?: string; limit: number }): CatalogueItem[] {
    const wanted = text.trim().toLowerCase();
    if (wanted === '') return [];
    const byCode = /\s/.test(wanted) ? [] : this.codePrefixed(wanted, options);
    // Enough code matches, or a code being typed ("WID-04"): words would add only noise, and
    // FlexSearch is slow on digits (it splits numbers into chunks and intersects them).
    if (byCode.length >= options.limit || (byCode.length > 0 && /\d/.test(wanted))) {
      return byCode.map((slot) => this.itemAt(slot));
    }
    const seen = new Set(byCode);
    const rest = this.searchWords(wanted, options).filter((slot) => !seen.has(slot));
    return [...byCode, ...rest].slice(0, options.limit).map((slot) => this.itemAt(slot));
  }

  /** Slots whose code starts with `prefix`, in code order: a binary search, no intersecting. */
  private codePrefixed(prefix: string, options: { category?: string; limit: number }): number[] {
    const order = this.codeOrder();
    const category = this.categoryFilter(options.category);
    let low = 0;
    let high = order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.lowerCode(order[mid]) < prefix) low = mid + 1;
      else high = mid;
    }
    const found: number[] = [];
    for (let i = low; i < order.length && found.length < options.limit; i += 1) {
      const slot = order[i] ?? 0;
      if (!this.lowerCode(slot).startsWith(prefix)) break;
      if (category === undefined || this.categoryOf[slot] === category) found.push(slot);
    }
    return found;
  }

  private lowerCode(slot: number | undefined): string {
    return slot === undefined ? '' : (this.codeOf[slot] ?? '').toLowerCase();
  }

  /** The category's number for a filter: undefined for none, -1 for a name no item has. */
  private categoryFilter(category: string | undefined): number | undefined {
    return category === undefined ? undefined : this.names.find(category);
  }

  /**
   * Codes in order, rebuilt when items were added, at most every 2 s: while the crawl adds
   * thousands of items a second, re-sorting on every keystroke would cost more than a
   * suggestion that misses the newest ones for a moment (FlexSearch still finds them).
   */
  private codeOrder(): Uint32Array {
    const now = Date.now();
    if (this.codes && (this.codesAt === this.revision || now - this.codesBuiltAt < 2_000)) {
      return this.codes;
    }
    const lower = this.codeOf.map((code) => code.toLowerCase());
    const order = Array.from(lower.keys()).sort((a, b) => {
      const x = lower[a] ?? '';
      const y = lower[b] ?? '';
      return x < y ? -1 : x > y ? 1 : 0;
    });
    this.codes = Uint32Array.from(order);
    this.codesAt = this.revision;
    this.codesBuiltAt = now;
    return this.codes;
  }

  private searchWords(wanted: string, options: { category?: string; limit: number }): number[] {
    const words = wordsOf(wanted);
    // FlexSearch intersects every word's list, which is slow when a word is short and common
    // ("bolt g", "wid-0123"): it is asked for the longest word only (prefix and fuzzy), and
    // the other words are checked here as prefixes of the item's words.
    const primary = words.reduce((a, b) => (b.length > a.length ? b : a), '');
    if (primary === '') return [];
    const others = words.filter((w) => w !== primary);
    const category = this.categoryFilter(options.category);
    const ids = this.index.search(primary, { limit: CANDIDATES });
    const found: number[] = [];
    for (const id of ids) {
      const slot = typeof id === 'number' ? this.slots.get(id) : undefined;
      if (slot === undefined) continue;
      if (category !== undefined && this.categoryOf[slot] !== category) continue;
      if (!resembles(primary, this.codeOf[slot] ?? '', this.descriptionOf[slot] ?? '')) continue;
      if (others.length > 0) {
        if (!hasPrefixes(this.codeOf[slot] ?? '', this.descriptionOf[slot] ?? '', others)) {
          continue;
        }
        found.push(slot);
        // Several words never equal a code, so no later candidate ranks higher: enough.
        if (found.length >= options.limit) break;
      } else {
        found.push(slot);
      }
    }
    const rank = (slot: number) => {
      const code = this.lowerCode(slot);
      return code === wanted ? 0 : code.startsWith(wanted) ? 1 : 2;
    };
    // A stable sort keeps FlexSearch's relevance order within each rank.
    return found.sort((a, b) => rank(a) - rank(b)).slice(0, options.limit);
  }

  /** The categories seen, with their ids where known and their item counts, by name. */
  categories(): CategoryCount[] {
    const counts = new Map<string, number>();
    for (let slot = 0; slot < this.codeOf.length; slot += 1) {
      const category = this.names.name(this.categoryOf[slot] ?? 0);
      if (category) counts.set(category, (counts.get(category) ?? 0) + 1);
    }
    const ids = new Map<string, number>();
    for (const [id, name] of this.categoryNames) {
      if (!ids.has(name)) ids.set(name, id);
      if (!counts.has(name)) counts.set(name, 0);
    }
    return [...counts]
      .map(([name, items]) => ({ name, id: ids.get(name), items }))
      .sort((a, b) => a.name.localeCompare(b.name));
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
    this.codes = undefined;
    this.categoryNames.clear();
    this.supplierNames.clear();
    this.index = newIndex();
    for (const [id, name] of snapshot.categories) this.categoryNames.set(id, name);
    for (const [id, name] of snapshot.suppliers ?? []) this.supplierNames.set(id, name);
    for (const item of snapshot.items) this.put(item);
    this.state = { ...snapshot.state };
    this.revision += 1;
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
    const reindex =
      slot === undefined ||
      this.codeOf[slot] !== item.code ||
      this.descriptionOf[slot] !== item.description;
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
    if (reindex) {
      const text = searchableText(item);
      if (known) this.index.update(item.id, text);
      else this.index.add(item.id, text);
      // Figures alone (every ERP answer refreshes them) leave the code order as it is.
      this.revision += 1;
    }
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

function wordsOf(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Case and accents do not count when a typed word is compared with an item's words. */
function fold(text: string): string {
  const lower = text.toLowerCase();
  // Most codes and descriptions are ASCII: normalising them would only cost time.
  return /^[\x20-\x7e]*$/.test(lower) ? lower : lower.normalize('NFKD').replace(/\p{M}/gu, '');
}

/**
 * Whether a word of the code or description starts with `typed` but for a typo or two (one
 * for short words). The encoder folds letters that sound alike, which finds "Sprocket" for
 * "sprok" but also reduces "zzzz" to "s" and would suggest every "Seal": a typed word that
 * resembles no word of the item suggests nothing rather than unrelated items.
 */
function resembles(typed: string, code: string, description: string): boolean {
  const word = fold(typed);
  const words = wordsOf(fold(`${code} ${description}`));
  if (words.some((candidate) => candidate.startsWith(word))) return true;
  const max = word.length <= 2 ? 0 : word.length <= 4 ? 1 : 2;
  return words.some((candidate) => editDistance(word, candidate.slice(0, word.length), max) <= max);
}

/** Each prefix starts a word of the code or description (cheaper than splitting them). */
function hasPrefixes(code: string, description: string, prefixes: readonly string[]): boolean {
  const text = ` ${code} ${description}`.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ');
  return prefixes.every((prefix) => text.includes(` ${prefix}`));
}

function newIndex() {
  return new FlexSearch.Index({
    tokenize: 'forward',
    // Numbers stay split in 3-digit chunks (FlexSearch's default): one token per digit
    // prefix would multiply the index's memory. Code prefixes are served by codePrefixed.
    // No encoder cache: it kept every indexed text and its terms to speed up encoding the
    // same text twice, which indexing never does.
    encoder: new FlexSearch.Encoder({ ...FlexSearch.Charset.LatinBalance, cache: false }),
  });
}

/** The encoder splits the code at its punctuation: `WID-0009` is found by "wid" and "0009". */
function searchableText(item: Pick<CatalogueItem, 'code' | 'description'>): string {
  return `${item.code} ${item.description}`;
}
