/**
 * The catalogue index as the sentence reader asks it: known codes (in any case or spelling),
 * codes near a typo, items matching words, whether the index is complete, and the branch names
 * the app has seen. Reads the index only; never the ERP.
 */

import { editDistance } from '../catalogue/editDistance.js';
import type { CatalogueStore } from '../catalogue/store.js';
import type { Candidate } from '../views/words.js';
import { codeKey } from './codeShape.js';
import type { WordsIndex } from './reading.js';

/** What the adapter reads: the store, and whether the index is complete (the catalogue's rule). */
interface IndexSource {
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

/** The known codes by key (case, accents, separators aside), with buckets for typo search. */
interface CodeKeys {
  /** Key -> the one code with it (null: two codes share it, so neither is "known"). */
  byKey: Map<string, string | null>;
  /** `<first two>` and `>last two` characters of a key -> the keys with them. */
  buckets: Map<string, KeyEntry[]>;
}

/** A key, and the characters in it as bits (see `maskOf`). */
interface KeyEntry {
  key: string;
  mask: number;
}

/**
 * The characters of a key (upper-case letters and digits) as bits: letters one each, digits
 * folded onto six. A character of the typed key whose bit the candidate lacks costs an edit,
 * so the bits the candidate lacks count edits from below, in a few instructions.
 */
function maskOf(key: string): number {
  let mask = 0;
  for (let i = 0; i < key.length; i += 1) {
    const c = key.charCodeAt(i);
    mask |= 1 << (c >= 65 && c <= 90 ? c - 65 : c >= 48 && c <= 57 ? 26 + ((c - 48) % 6) : 0);
  }
  return mask >>> 0;
}

function bitCount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The longest key compared: a pasted paragraph is not a typo of a code. */
const MAX_KEY = 40;

function buildKeys(store: CatalogueStore): CodeKeys {
  const byKey = new Map<string, string | null>();
  const buckets = new Map<string, KeyEntry[]>();
  // One scan of the store's columns that builds no item.
  store.matching((code) => {
    const key = codeKey(code);
    if (key === '' || key.length > MAX_KEY) return false;
    if (byKey.has(key)) {
      if (byKey.get(key) !== code) byKey.set(key, null);
      return false;
    }
    byKey.set(key, code);
    const entry = { key, mask: maskOf(key) };
    for (const bucket of bucketsOf(key)) {
      const list = buckets.get(bucket);
      if (list) list.push(entry);
      else buckets.set(bucket, [entry]);
    }
    return false;
  });
  return { byKey, buckets };
}

/** A typo rarely changes both ends of a code: its first two or its last two characters stay. */
const bucketsOf = (key: string) => [`<${key.slice(0, 2)}`, `>${key.slice(-2)}`];

/**
 * The known codes nearest to `piece`: one typo away for short codes, two for longer ones,
 * only the closest; looked for among the codes that share its first or last two characters,
 * so a sentence costs a few comparisons, not one per item of the catalogue.
 */
function nearest(keys: CodeKeys, piece: string, limit: number): string[] {
  const key = codeKey(piece);
  if (key.length < 2 || key.length > MAX_KEY) return [];
  const max = key.length <= 4 ? 1 : 2;
  const mask = maskOf(key);
  const seen = new Set<string>();
  const found: Array<{ code: string; distance: number }> = [];
  for (const bucket of bucketsOf(key)) {
    for (const candidate of keys.buckets.get(bucket) ?? []) {
      if (Math.abs(candidate.key.length - key.length) > max) continue;
      if (bitCount(mask & ~candidate.mask) > max || seen.has(candidate.key)) continue;
      seen.add(candidate.key);
      const code = keys.byKey.get(candidate.key);
      if (!code || missing(key, candidate.key) > max) continue;
      const distance = candidate.key === key ? 0 : editDistance(key, candidate.key, max);
      if (distance <= max) found.push({ code, distance });
    }
  }
  const closest = Math.min(...found.map((f) => f.distance));
  return found
    .filter((f) => f.distance === closest)
    .sort((a, b) => a.code.length - b.code.length || a.code.localeCompare(b.code))
    .slice(0, limit)
    .map((f) => f.code);
}

/**
 * Characters of `key` that `candidate` lacks: each costs at least one edit, so a candidate
 * lacking more than the edits allowed is passed over without the distance's table.
 */
function missing(key: string, candidate: string): number {
  let count = 0;
  for (const char of key) if (!candidate.includes(char)) count += 1;
  return count;
}

/**
 * Items whose code or description holds every word (the ERP's search rule, as the index's
 * `/stock` search applies it), the best few by the same ranking (exact code, code prefix, the
 * rest; then by code), and how many in all: one scan that builds no item.
 */
function matching(
  store: CatalogueStore,
  words: readonly string[],
  limit: number,
): { items: Candidate[]; total: number } {
  const wanted = words.map((word) => word.toLowerCase()).filter((word) => word !== '');
  if (wanted.length === 0) return { items: [], total: 0 };
  const whole = wanted.join(' ');
  let total = 0;
  const best: Array<Candidate & { rank: number }> = [];
  store.matching((code, description) => {
    const lowerCode = code.toLowerCase();
    const lowerDescription = description.toLowerCase();
    if (!wanted.every((w) => lowerCode.includes(w) || lowerDescription.includes(w))) return false;
    total += 1;
    const rank =
      lowerCode === whole || wanted.includes(lowerCode)
        ? 0
        : wanted.some((w) => lowerCode.startsWith(w))
          ? 1
          : 2;
    const worst = best.at(-1);
    if (
      best.length < limit ||
      (worst && (rank < worst.rank || (rank === worst.rank && code < worst.code)))
    ) {
      best.push({ code, description, rank });
      best.sort((a, b) => a.rank - b.rank || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
      if (best.length > limit) best.pop();
    }
    return false;
  });
  return { items: best.map(({ code, description }) => ({ code, description })), total };
}

export function catalogueWordsIndex(
  source: IndexSource,
  branches: BranchNames = new BranchNames(),
  now: () => number = Date.now,
): WordsIndex {
  let keys: CodeKeys | undefined;
  let keysSize = -1;
  let keysAt = 0;
  const codeKeys = (): CodeKeys => {
    const size = source.store.size;
    if (keys && size === keysSize && now() - keysAt < KEYS_FRESH_MS) return keys;
    keys = buildKeys(source.store);
    keysSize = size;
    keysAt = now();
    return keys;
  };
  return {
    knownCode: (piece) => codeKeys().byKey.get(codeKey(piece)) ?? undefined,
    nearestCodes: (piece, limit) => nearest(codeKeys(), piece, limit),
    // The store's own code table answers in any case; only the code exactly as asked counts.
    describe: (code) => {
      const item = source.store.byCodeOf(code);
      return item?.code === code ? item.description : undefined;
    },
    itemsMatching: (words, limit) => matching(source.store, words, limit),
    complete: () => source.isComplete(),
    branchNames: () => branches.list(),
  };
}
