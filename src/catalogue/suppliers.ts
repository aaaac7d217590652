/**
 * `supplier:WORD`: a supplier name, as people type it, resolved to the id the ERP's search
 * filter takes, among the suppliers whose id the index has learned.
 */

import type { SupplierCount } from './records.js';
import { withoutAccents } from './search.js';
import { nearestCodes } from './suggest.js';

type SupplierResolution =
  | { kind: 'found'; id: number; name: string }
  /** Several known suppliers fit the word: the user picks one (by id). */
  | { kind: 'ambiguous'; matches: Array<{ id: number; name: string }> }
  /** None fits: the names closest to it, if any. */
  | { kind: 'unknown'; close: Array<{ id: number; name: string }> };

/** Case, accents and punctuation do not count: `Ácme-Pty` is `acme pty`. */
function fold(text: string): string {
  return withoutAccents(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const MAX_LISTED = 5;
/** A prefix shorter than this fits too many names to mean one. */
const MIN_PREFIX = 3;

export function resolveSupplierName(
  suppliers: readonly SupplierCount[],
  typed: string,
): SupplierResolution {
  const known = suppliers.filter((s): s is SupplierCount & { id: number } => s.id !== undefined);
  const wanted = fold(typed.slice(0, 100));
  if (wanted === '') return { kind: 'unknown', close: [] };
  const pick = (s: { id: number; name: string }) => ({ id: s.id, name: s.name });
  const exact = known.filter((s) => fold(s.name) === wanted);
  if (exact.length === 1 && exact[0]) return { kind: 'found', ...pick(exact[0]) };
  const byPrefix =
    exact.length > 1
      ? exact
      : wanted.length < MIN_PREFIX
        ? []
        : known.filter((s) => {
            const name = fold(s.name);
            return name.startsWith(wanted) || name.split(' ').some((w) => w.startsWith(wanted));
          });
  const ids = new Set(byPrefix.map((s) => s.id));
  if (ids.size === 1 && byPrefix[0]) return { kind: 'found', ...pick(byPrefix[0]) };
  if (ids.size > 1) return { kind: 'ambiguous', matches: byPrefix.slice(0, MAX_LISTED).map(pick) };
  // A typo or two: the same measure as "did you mean" for codes, over each word of each name.
  const words = new Map<string, SupplierCount & { id: number }>();
  for (const s of known) {
    words.set(s.name, s);
    for (const word of fold(s.name).split(' ')) if (!words.has(word)) words.set(word, s);
  }
  const near = nearestCodes(words.keys(), typed, MAX_LISTED);
  const close = new Map<number, { id: number; name: string }>();
  for (const key of near) {
    const s = words.get(key);
    if (s) close.set(s.id, pick(s));
  }
  return { kind: 'unknown', close: [...close.values()] };
}
