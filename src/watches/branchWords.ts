/**
 * A branch as a person names it in a watch (`at perth`, `at 2`): by id, exact name, or the
 * start of exactly one name, case-insensitive. Pure.
 */
import type { BranchStock } from '../erp/schemas.js';

export function matchesBranchWord(name: string, id: string, word: string): boolean {
  const w = word.trim().toLowerCase();
  return w === id || name.toLowerCase() === w || name.toLowerCase().startsWith(w);
}

/** A branch by id, exact name, or the start of exactly one name (case-insensitive). */
export function matchBranch(
  branches: readonly BranchStock[],
  word: string,
): BranchStock | undefined {
  const w = word.trim().toLowerCase();
  if (w === '') return undefined;
  const exact = branches.find((b) => String(b.id) === w || b.name.toLowerCase() === w);
  if (exact) return exact;
  const starts = branches.filter((b) => b.name.toLowerCase().startsWith(w));
  return starts.length === 1 ? starts[0] : undefined;
}
