/**
 * The catalogue index: every item the app has seen (search rows, full records, the crawl),
 * searchable by prefix and fuzzily on codes and description words.
 *
 * The full-text part is FlexSearch (`tokenize: 'forward'` gives prefixes, the LatinBalance
 * encoder folds case, accents and letters that sound alike, so "sprok" finds "Sprocket").
 * It was chosen over MiniSearch 7.2 and Orama 3.1 on 100,000 synthetic items, 2,000 typed
 * prefixes, on a loaded 2-core machine (build / index heap / query p50 / p99):
 *   FlexSearch 0.8 Index   6 s / 31 MiB / 0.04 ms / 29 ms
 *   MiniSearch (prefix + fuzzy 1)   4 s / 96 MiB / 40 ms / 171 ms
 *   Orama (tolerance 1)   5 s / 162 MiB / 223 ms / 804 ms
 * MiniSearch and Orama score every match, so a three-letter prefix that matches a tenth of
 * the catalogue costs tens of milliseconds. FlexSearch's slow cases (several words, digits)
 * are avoided below: code prefixes use a sorted array, extra words are checked here.
 * Its fuzziness is the encoder's (sound-alike letters), not edit distance: "gaskt" misses.
 *
 * Contacts are never indexed: they hold personal data.
 */
import FlexSearch from 'flexsearch';
import type { Item, ItemSearchRow } from '../erp/schemas.js';

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

/** Candidates read from FlexSearch for one typed text; the answer is the best 25 of them. */
const CANDIDATES = 1_000;

export class CatalogueStore {
  private readonly items = new Map<number, CatalogueItem>();
  private readonly categoryNames = new Map<number, string>();
  private index = newIndex();
  private codes: Array<[string, CatalogueItem]> | undefined;
  private codesAt = -1;
  private codesBuiltAt = 0;
  /** Bumped on every change: suggestion caches and the shared snapshot key on it. */
  private revision = 0;
  state: CatalogueState = { lastFullPassAt: undefined, knownTotal: undefined, wordless: undefined };

  get size(): number {
    return this.items.size;
  }

  get version(): number {
    return this.revision;
  }

  /** Adds or refreshes search rows; returns how many were new to the index. */
  addRows(rows: readonly ItemSearchRow[], seenAt: number, categoryId?: number): number {
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
        categoryId: categoryId ?? this.get(row.id)?.categoryId,
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
    const known = this.get(item.id);
    this.put({
      id: item.id,
      code: item.code,
      description: item.description,
      category: item.category,
      categoryId: known?.categoryId ?? this.categoryIdOf(item.category),
      supplier: item.primarysupplier,
      status: item.status_label,
      price: known?.price,
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

  get(id: number): CatalogueItem | undefined {
    return this.items.get(id);
  }

  /** A scan (about a millisecond per 100,000 items): rare, so no second map costs memory. */
  byCodeOf(code: string): CatalogueItem | undefined {
    const wanted = code.toLowerCase();
    for (const item of this.items.values()) if (item.code.toLowerCase() === wanted) return item;
    return undefined;
  }

  all(): IterableIterator<CatalogueItem> {
    return this.items.values();
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
    if (byCode.length >= options.limit || (byCode.length > 0 && /\d/.test(wanted))) return byCode;
    const seen = new Set(byCode.map((item) => item.id));
    const rest = this.searchWords(wanted, options).filter((item) => !seen.has(item.id));
    return [...byCode, ...rest].slice(0, options.limit);
  }

  /** Items whose code starts with `prefix`, in code order: a binary search, no intersecting. */
  private codePrefixed(
    prefix: string,
    options: { category?: string; limit: number },
  ): CatalogueItem[] {
    const order = this.codeOrder();
    let low = 0;
    let high = order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((order[mid]?.[0] ?? '') < prefix) low = mid + 1;
      else high = mid;
    }
    const found: CatalogueItem[] = [];
    for (let i = low; i < order.length && found.length < options.limit; i += 1) {
      const [code, item] = order[i] ?? ['', undefined];
      if (!code.startsWith(prefix)) break;
      if (item && (options.category === undefined || item.category === options.category)) {
        found.push(item);
      }
    }
    return found;
  }

  /**
   * Codes in order, rebuilt when items were added, at most every 2 s: while the crawl adds
   * thousands of items a second, re-sorting on every keystroke would cost more than a
   * suggestion that misses the newest ones for a moment (FlexSearch still finds them).
   */
  private codeOrder(): Array<[string, CatalogueItem]> {
    const now = Date.now();
    if (this.codes && (this.codesAt === this.revision || now - this.codesBuiltAt < 2_000)) {
      return this.codes;
    }
    this.codes = [...this.items.values()]
      .map((item): [string, CatalogueItem] => [item.code.toLowerCase(), item])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.codesAt = this.revision;
    this.codesBuiltAt = now;
    return this.codes;
  }

  private searchWords(wanted: string, options: { category?: string; limit: number }) {
    const words = wordsOf(wanted);
    // FlexSearch intersects every word's list, which is slow when a word is short and common
    // ("bolt g", "wid-0123"): it is asked for the longest word only (prefix and fuzzy), and
    // the other words are checked here as prefixes of the item's words.
    const primary = words.reduce((a, b) => (b.length > a.length ? b : a), '');
    if (primary === '') return [];
    const others = words.filter((w) => w !== primary);
    const ids = this.index.search(primary, { limit: CANDIDATES });
    const found: CatalogueItem[] = [];
    for (const id of ids) {
      const item = typeof id === 'number' ? this.items.get(id) : undefined;
      if (!item) continue;
      if (options.category !== undefined && item.category !== options.category) continue;
      if (others.length > 0) {
        if (!hasPrefixes(item, others)) continue;
        found.push(item);
        // Several words never equal a code, so no later candidate ranks higher: enough.
        if (found.length >= options.limit) break;
      } else {
        found.push(item);
      }
    }
    const rank = (item: CatalogueItem) => {
      const code = item.code.toLowerCase();
      return code === wanted ? 0 : code.startsWith(wanted) ? 1 : 2;
    };
    // A stable sort keeps FlexSearch's relevance order within each rank.
    return found.sort((a, b) => rank(a) - rank(b)).slice(0, options.limit);
  }

  /** The categories seen, with their ids where known and their item counts, by name. */
  categories(): CategoryCount[] {
    const counts = new Map<string, number>();
    for (const item of this.items.values()) {
      if (item.category) counts.set(item.category, (counts.get(item.category) ?? 0) + 1);
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
      items: [...this.items.values()],
      categories: [...this.categoryNames],
      state: { ...this.state },
    };
  }

  /** Replaces everything with a snapshot (another replica's crawl, or the file at start). */
  load(snapshot: CatalogueSnapshot): void {
    this.items.clear();
    this.codes = undefined;
    this.categoryNames.clear();
    this.index = newIndex();
    for (const [id, name] of snapshot.categories) this.categoryNames.set(id, name);
    for (const item of snapshot.items) this.put(item);
    this.state = { ...snapshot.state };
    this.revision += 1;
  }

  /** Returns true when the item was not in the index before. */
  private put(item: CatalogueItem): boolean {
    const known = this.items.get(item.id);
    this.items.set(item.id, item);
    if (!known || known.code !== item.code || known.description !== item.description) {
      const text = searchableText(item);
      if (known) this.index.update(item.id, text);
      else this.index.add(item.id, text);
    }
    this.revision += 1;
    return known === undefined;
  }
}

function wordsOf(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Each prefix starts a word of the code or description (cheaper than splitting them). */
function hasPrefixes(item: CatalogueItem, prefixes: readonly string[]): boolean {
  const text = ` ${item.code} ${item.description}`.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ');
  return prefixes.every((prefix) => text.includes(` ${prefix}`));
}

function newIndex() {
  return new FlexSearch.Index({
    tokenize: 'forward',
    // Numbers stay split in 3-digit chunks (FlexSearch's default): one token per digit
    // prefix would add 30 MiB per 100,000 codes. Code prefixes are served by codePrefixed.
    encoder: FlexSearch.Charset.LatinBalance,
  });
}

/** The encoder splits the code at its punctuation: `WID-0009` is found by "wid" and "0009". */
function searchableText(item: CatalogueItem): string {
  return `${item.code} ${item.description}`;
}
