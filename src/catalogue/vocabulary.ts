/**
 * The index's words (folded: lower case, no accents), for the typeahead's "a typed word must
 * resemble a word of the item" check. Checking each of up to a thousand candidates with an
 * edit distance per word made a keystroke that matches nothing cost more than the search;
 * instead the word is compared once with the vocabulary, walked as a trie over a sorted array
 * (no trie nodes to keep), and each candidate only looks its words up in the answer.
 */
import { editDistance } from './editDistance.js';

/**
 * Words added since the sorted array was built are checked one by one until it is rebuilt;
 * they are merged in once this many are waiting, so a load with no keystrokes holds no more.
 */
const PENDING_MAX = 2_000;
const REBUILD_MS = 2_000;

export class Vocabulary {
  private sorted: string[] = [];
  /** New words only: a word already sorted or pending is not kept twice. */
  private pending = new Set<string>();
  private builtAt = 0;
  /** Inside `deferred`: new words wait for one merge at its end. */
  private deferring = false;

  constructor(private readonly now: () => number = Date.now) {}

  /** Words only accumulate until `clear`: a word no item has any more matches no candidate. */
  add(words: readonly string[]): void {
    // A changed item adds its words again: known words cost a lookup and no memory, and new
    // ones are merged as soon as PENDING_MAX wait, keystrokes or not.
    for (const word of words) {
      if (this.pending.has(word) || this.isSorted(word)) continue;
      this.pending.add(word);
      if (this.pending.size >= PENDING_MAX && !this.deferring) this.merge();
    }
  }

  /**
   * Runs `fn` (a snapshot's load, every item added at once) with one merge at its end: a merge
   * copies the whole sorted array, so merging every PENDING_MAX words made a load's cost grow
   * with the square of its words.
   */
  deferred(fn: () => void): void {
    this.deferring = true;
    try {
      fn();
    } finally {
      this.deferring = false;
      this.merge();
    }
  }

  /** Words waiting to be merged into the sorted array (bounded by PENDING_MAX). */
  get pendingCount(): number {
    return this.pending.size;
  }

  clear(): void {
    this.sorted = [];
    this.pending.clear();
  }

  /**
   * The starts of the vocabulary's words (their first `typed.length` letters, or the whole
   * word when shorter) within `max` edits of `typed`: an item's word resembles `typed` exactly
   * when its start is one of them.
   */
  startsNear(typed: string, max: number): Set<string> {
    this.rebuildIfDue();
    const found = new Set<string>();
    const n = typed.length;
    // Pending words may share a start: each start is compared once.
    const starts = new Set([...this.pending].map((word) => word.slice(0, n)));
    for (const start of starts) if (editDistance(typed, start, max) <= max) found.add(start);
    const first = Array.from({ length: n + 1 }, (_, j) => j);
    this.walk(typed, max, found, 0, this.sorted.length, 0, first, []);
    return found;
  }

  /**
   * Words in [lo, hi) share their first `depth` letters; `row` is the edit distance (optimal
   * string alignment, as editDistance) of that shared start to each start of `typed`, and
   * `above` the row one letter before, for swapped neighbours.
   */
  private walk(
    typed: string,
    max: number,
    found: Set<string>,
    lo: number,
    hi: number,
    depth: number,
    row: number[],
    above: number[],
  ): void {
    const n = typed.length;
    const words = this.sorted;
    let at = lo;
    // The shared start is itself a word (sorted first): shorter than `typed`, it is its start.
    if ((words[at]?.length ?? 0) === depth) {
      if (depth > 0 && (row[n] ?? max + 1) <= max) found.add(words[at] ?? '');
      at += 1;
    }
    if (depth === n) {
      if (at < hi && (row[n] ?? max + 1) <= max) found.add((words[at] ?? '').slice(0, n));
      return;
    }
    while (at < hi) {
      const word = words[at] ?? '';
      const letter = word.charCodeAt(depth);
      // Words sharing this letter are one run (the array is sorted): binary search its end.
      let low = at + 1;
      let high = hi;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if ((words[mid] ?? '').charCodeAt(depth) === letter) low = mid + 1;
        else high = mid;
      }
      const end = low;
      const next = nextRow(typed, word, depth, row, above);
      if (Math.min(...next) <= max) this.walk(typed, max, found, at, end, depth + 1, next, row);
      at = end;
    }
  }

  private rebuildIfDue(): void {
    if (this.pending.size === 0) return;
    if (this.now() - this.builtAt < REBUILD_MS) return;
    this.merge();
  }

  private isSorted(word: string): boolean {
    const words = this.sorted;
    let low = 0;
    let high = words.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((words[mid] ?? '') < word) low = mid + 1;
      else high = mid;
    }
    return words[low] === word;
  }

  /** Pending words are none of the sorted ones: sort them and merge the two sorted lists. */
  private merge(): void {
    const added = [...this.pending].sort();
    const old = this.sorted;
    const all: string[] = [];
    let i = 0;
    let j = 0;
    while (i < old.length || j < added.length) {
      const a = old[i];
      const b = added[j];
      if (b === undefined || (a !== undefined && a < b)) {
        all.push(a ?? '');
        i += 1;
      } else {
        all.push(b);
        j += 1;
      }
    }
    this.sorted = all;
    this.pending.clear();
    this.builtAt = this.now();
  }
}

/** The distance row of `word`'s first depth+1 letters, from the row of its first `depth`. */
function nextRow(
  typed: string,
  word: string,
  depth: number,
  row: readonly number[],
  above: readonly number[],
): number[] {
  const letter = word[depth];
  const next = [depth + 1];
  for (let j = 1; j <= typed.length; j += 1) {
    const cost = typed[j - 1] === letter ? 0 : 1;
    let value = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + cost);
    if (depth > 0 && j > 1 && typed[j - 1] === word[depth - 1] && typed[j - 2] === letter) {
      value = Math.min(value, (above[j - 2] ?? 0) + 1);
    }
    next.push(value);
  }
  return next;
}
