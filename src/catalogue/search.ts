/**
 * Finding items in the catalogue index's columns: by exact code (any case), by code prefix (a
 * sorted array and a binary search) and by words (FlexSearch). It answers slots; the store
 * builds the items.
 *
 * FlexSearch was chosen over MiniSearch and Orama because they score every match, so a short
 * prefix that matches a large part of the catalogue is slow (the comparison and the index's
 * memory are in docs/benchmarks.md). FlexSearch's slow cases (several words, digits) are
 * avoided here: code prefixes use a sorted array, extra words are checked on its candidates.
 * Its fuzziness is the encoder's (sound-alike letters), not edit distance: "gaskt" misses. The
 * vocabulary (vocabulary.ts) only narrows what it finds to items with a word that resembles
 * each typed word.
 */
import FlexSearch from 'flexsearch';
import { CodeTable, type Names } from './columns.js';
import { Vocabulary } from './vocabulary.js';

/** Candidates read from FlexSearch for one typed text; the answer is the best 25 of them. */
const CANDIDATES = 1_000;

/** The store's columns as the search reads them (the arrays are the store's own, kept live). */
interface SearchedColumns {
  readonly codeOf: readonly string[];
  readonly descriptionOf: readonly string[];
  readonly slots: ReadonlyMap<number, number>;
  readonly names: Names;
  /** The category name's number of the item in a slot. */
  categoryAt(slot: number): number;
}

export interface SuggestOptions {
  category?: string;
  limit: number;
}

export class SlotSearch {
  private index = newIndex();
  private readonly codeTable: CodeTable;
  /** Slots in code order (lower case), for the binary search of code prefixes. */
  private codes: Uint32Array | undefined;
  private codesAt = -1;
  private codesBuiltAt = 0;
  /** Bumped when a code or description changes: the sorted code list is rebuilt after it. */
  private revision = 0;
  private readonly vocabulary = new Vocabulary();

  constructor(private readonly columns: SearchedColumns) {
    this.codeTable = new CodeTable(columns.codeOf);
  }

  /**
   * A slot's code or description is new or changed (the columns already hold the new ones);
   * `before` is the code the slot had, undefined for a new slot.
   */
  changed(id: number, slot: number, before: string | undefined): void {
    const code = this.columns.codeOf[slot] ?? '';
    const text = `${code} ${this.columns.descriptionOf[slot] ?? ''}`;
    this.vocabulary.add(foldedWords(text));
    if (before === undefined) this.index.add(id, text);
    else this.index.update(id, text);
    if (before === undefined) this.codeTable.added(slot);
    else if (before !== code) this.codeTable.renamed();
    this.revision += 1;
  }

  /** Runs `fn`, which changes many slots at once, merging the vocabulary once at its end. */
  bulk(fn: () => void): void {
    this.vocabulary.deferred(fn);
  }

  /** Forgets every slot (the store is emptied before a snapshot is loaded). */
  clear(): void {
    this.index = newIndex();
    this.vocabulary.clear();
    this.codeTable.clear();
    this.codes = undefined;
    this.revision += 1;
  }

  /** The first slot whose code is this one but for case. */
  slotOfCode(code: string): number | undefined {
    return this.codeTable.find(code);
  }

  /**
   * Typeahead: slots whose code or description words start with what was typed (every word
   * must match; fuzzy per the encoder), optionally in one category. Exact and prefix code
   * matches come first, like the ERP's own ranking.
   */
  suggest(text: string, options: SuggestOptions): number[] {
    const wanted = text.trim().toLowerCase();
    if (wanted === '') return [];
    const byCode = /\s/.test(wanted) ? [] : this.codePrefixed(wanted, options);
    // Enough code matches, or a code being typed ("WID-04"): words would add only noise, and
    // FlexSearch is slow on digits (it splits numbers into chunks and intersects them).
    if (byCode.length >= options.limit || (byCode.length > 0 && /\d/.test(wanted))) {
      return byCode;
    }
    const seen = new Set(byCode);
    const rest = this.searchWords(wanted, options).filter((slot) => !seen.has(slot));
    return [...byCode, ...rest].slice(0, options.limit);
  }

  /** Slots whose code starts with `prefix`, in code order: a binary search, no intersecting. */
  private codePrefixed(prefix: string, options: SuggestOptions): number[] {
    const order = this.codeOrder();
    const category = this.categoryFilter(options.category);
    let low = 0;
    let high = order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.lowerCode(order[mid] ?? 0) < prefix) low = mid + 1;
      else high = mid;
    }
    const found: number[] = [];
    for (let i = low; i < order.length && found.length < options.limit; i += 1) {
      const slot = order[i] ?? 0;
      if (!this.lowerCode(slot).startsWith(prefix)) break;
      if (category === undefined || this.columns.categoryAt(slot) === category) found.push(slot);
    }
    return found;
  }

  /**
   * The slot's code in lower case, from the column: the binary search and the ranking read a
   * few dozen a keystroke, too few to keep a second, lower-case copy of every code for.
   */
  private lowerCode(slot: number): string {
    return (this.columns.codeOf[slot] ?? '').toLowerCase();
  }

  /** The category's number for a filter: undefined for none, -1 for a name no item has. */
  private categoryFilter(category: string | undefined): number | undefined {
    return category === undefined ? undefined : this.columns.names.find(category);
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
    const lower = this.columns.codeOf.map((code) => code.toLowerCase());
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

  private searchWords(wanted: string, options: SuggestOptions): number[] {
    const words = wordsOf(wanted);
    // FlexSearch intersects every word's list, which is slow when a word is short and common
    // ("bolt g", "wid-0123"): it is asked for the longest word only (prefix and fuzzy), and
    // the other words are checked here as prefixes of the item's words.
    const primary = words.reduce((a, b) => (b.length > a.length ? b : a), '');
    if (primary === '') return [];
    const others = words.filter((w) => w !== primary);
    const category = this.categoryFilter(options.category);
    const ids = this.index.search(primary, { limit: CANDIDATES });
    if (ids.length === 0) return [];
    // The starts of the index's words that resemble the typed word: none, and no item can.
    const typed = fold(primary);
    const near = this.vocabulary.startsNear(typed, typoAllowance(typed));
    if (near.size === 0) return [];
    const { codeOf, descriptionOf, slots } = this.columns;
    const candidates: number[] = [];
    for (const id of ids) {
      const slot = typeof id === 'number' ? slots.get(id) : undefined;
      if (slot !== undefined) candidates.push(slot);
    }
    // One word: the answer is the best `limit` candidates that pass, by rank, so they are put
    // in rank order first and checked only until that many pass (most do), instead of all.
    // Several words never equal a code, so no candidate after the first `limit` that pass
    // ranks higher: they are checked in FlexSearch's order and ranked after.
    const ordered = others.length > 0 ? candidates : this.byRank(candidates, wanted);
    const found: number[] = [];
    for (const slot of ordered) {
      if (category !== undefined && this.columns.categoryAt(slot) !== category) continue;
      const code = codeOf[slot] ?? '';
      const description = descriptionOf[slot] ?? '';
      // The other words first: they turn most candidates away, the resemblance check few.
      if (others.length > 0 && !hasPrefixes(code, description, others)) continue;
      if (!resembles(typed, near, code, description)) continue;
      found.push(slot);
      if (found.length >= options.limit) break;
    }
    return others.length > 0 ? this.byRank(found, wanted) : found;
  }

  /**
   * The slots with the code `wanted` first, then those whose code starts with it, then the
   * rest, each in the order given (so FlexSearch's relevance order within each rank).
   */
  private byRank(slots: readonly number[], wanted: string): number[] {
    const equal: number[] = [];
    const prefixed: number[] = [];
    const rest: number[] = [];
    for (const slot of slots) {
      const code = this.lowerCode(slot);
      (code === wanted ? equal : code.startsWith(wanted) ? prefixed : rest).push(slot);
    }
    return equal.length + prefixed.length === 0 ? rest : [...equal, ...prefixed, ...rest];
  }
}

function wordsOf(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * `WIDGÉT-9` -> `WIDGET-9`: letters without their accents (linear in the word). The one way
 * the catalogue and the sentence reader above it set accents aside.
 */
export function withoutAccents(word: string): string {
  // Most codes, descriptions and names are ASCII: normalising them would only cost time.
  return /\P{ASCII}/u.test(word) ? word.normalize('NFKD').replace(/\p{M}/gu, '') : word;
}

/** Accents, case and runs of spaces aside: `  Pérth   Airport ` is `perth airport`. */
export function foldedName(name: string): string {
  return withoutAccents(name).toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Case and accents do not count when a typed word is compared with an item's words. */
function fold(text: string): string {
  return withoutAccents(text.toLowerCase());
}

/** The words of an item's code and description as the resemblance check compares them. */
function foldedWords(text: string): string[] {
  return wordsOf(fold(text));
}

/** Typos forgiven in a typed word: one for short words, none for two letters. */
function typoAllowance(word: string): number {
  return word.length <= 2 ? 0 : word.length <= 4 ? 1 : 2;
}

/**
 * Whether a word of the code or description starts with the (folded) typed word but for a
 * typo or two: its start is one of `near`, the vocabulary's starts within the allowance. The
 * encoder folds letters that sound alike, which finds "Sprocket" for "sprok" but also reduces
 * "zzzz" to "s" and would offer every "Seal": a typed word that resembles no word of the item
 * suggests nothing rather than unrelated items.
 */
function resembles(
  typed: string,
  near: ReadonlySet<string>,
  code: string,
  description: string,
): boolean {
  return foldedWords(`${code} ${description}`).some((word) =>
    near.has(word.slice(0, typed.length)),
  );
}

/** Each prefix starts a word of the code or description (cheaper than splitting them). */
function hasPrefixes(code: string, description: string, prefixes: readonly string[]): boolean {
  const text = ` ${code} ${description}`.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ');
  return prefixes.every((prefix) => text.includes(` ${prefix}`));
}

/** The encoder splits the code at its punctuation: `WID-0009` is found by "wid" and "0009". */
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
