/**
 * The catalogue index as the sentence reader asks it: known codes (in any case or spelling),
 * codes near a typo, items matching words, whether the index is complete, and the branch names
 * the app has seen. Reads the index only; never the ERP.
 */
import { matchItems } from '../catalogue/match.js';
import type { CatalogueStore } from '../catalogue/store.js';
import { nearestCodes } from '../catalogue/suggest.js';
import { codeKey } from './codeShape.js';
import type { Candidate, WordsIndex } from './reading.js';

/** What the adapter reads: the store, and whether the index is complete (the catalogue's rule). */
export interface IndexSource {
  store: CatalogueStore;
  isComplete(): boolean;
}

/** How long a key map of the codes serves before it is rebuilt (the crawl adds items). */
const KEYS_FRESH_MS = 5_000;

/**
 * Branch names learned from the items the app read (full records carry their branches): the
 * reader uses them for branch words without `in` and for abbreviations. Bounded: a tenant has
 * tens of branches, not thousands.
 */
export class BranchNames {
  private readonly names = new Set<string>();

  constructor(private readonly max = 200) {}

  learn(names: Iterable<string>): void {
    for (const name of names) {
      const trimmed = name.trim();
      if (trimmed !== '' && trimmed.length <= 60 && this.names.size < this.max) {
        this.names.add(trimmed);
      }
    }
  }

  list(): readonly string[] {
    return [...this.names];
  }
}

export function catalogueWordsIndex(
  source: IndexSource,
  branches: BranchNames = new BranchNames(),
  now: () => number = Date.now,
): WordsIndex {
  let keys: Map<string, string | null> | undefined;
  let keysSize = -1;
  let keysAt = 0;
  /** Code key -> the one code with it (null: two codes share it, so neither is "known"). */
  const codeKeys = (): Map<string, string | null> => {
    const size = source.store.size;
    if (keys && size === keysSize && now() - keysAt < KEYS_FRESH_MS) return keys;
    const built = new Map<string, string | null>();
    for (const code of source.store.knownCodes()) {
      const key = codeKey(code);
      built.set(key, built.has(key) && built.get(key) !== code ? null : code);
    }
    keys = built;
    keysSize = size;
    keysAt = now();
    return built;
  };
  return {
    knownCode: (piece) => codeKeys().get(codeKey(piece)) ?? undefined,
    nearestCodes: (piece, limit) => nearestCodes(source.store.knownCodes(), piece, limit),
    itemsMatching: (words, limit) => {
      const found = matchItems(source.store, { words: [...words] }) ?? [];
      const items: Candidate[] = found
        .slice(0, limit)
        .map((item) => ({ code: item.code, description: item.description }));
      return { items, total: found.length };
    },
    complete: () => source.isComplete(),
    branchNames: () => branches.list(),
  };
}
