/**
 * Days of cover from a watched item's observed history: how long the available quantity lasts
 * at the rate it has been falling. Pure: the history is handed in, nothing is fetched.
 *
 * - Only with at least `COVER_MIN_DAYS` of history; with less there is no figure, never a guess.
 * - The rate is the use over the window (at most `HISTORY_DAYS`): the sum of the falls and of
 *   the small rises between points (returns, corrections, noise), with restocks left out. A
 *   restock is a rise far above the item's usual fall: more than `RESTOCK_STEPS` times the
 *   median size of its falls, so one delivery never hides the use around it.
 * - A history that does not fall (flat, or rising) has no days of cover.
 */

export interface HistoryPoint {
  at: number;
  available: number;
}

export interface Cover {
  /** Days the available quantity lasts at the rate (not rounded: the view rounds). */
  days: number;
  /** Whole days of history the rate was read over ("at the last D days' rate"). */
  windowDays: number;
}

const DAY_MS = 24 * 60 * 60_000;

/** The history kept, and read: older points are pruned. */
export const HISTORY_DAYS = 30;
export const COVER_MIN_DAYS = 3;
/** A rise bigger than this many median moves is a restock, not noise. */
const RESTOCK_STEPS = 3;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? 0) + upper) / 2;
}

/**
 * `history` in any order; `now` is the latest reading (added when newer than the history's
 * last point). Undefined: too little history, not falling, or nothing left to cover.
 */
export function daysOfCover(
  history: readonly HistoryPoint[],
  now: HistoryPoint,
): Cover | undefined {
  if (now.available <= 0) return undefined;
  const from = now.at - HISTORY_DAYS * DAY_MS;
  const points = history.filter((p) => p.at >= from && p.at <= now.at).sort((a, b) => a.at - b.at);
  const last = points.at(-1);
  if (last === undefined || last.at < now.at) points.push(now);
  const first = points[0];
  if (first === undefined) return undefined;
  const spanDays = (now.at - first.at) / DAY_MS;
  if (spanDays < COVER_MIN_DAYS) return undefined;
  const moves: number[] = [];
  for (let i = 1; i < points.length; i += 1) {
    const step = (points[i]?.available ?? 0) - (points[i - 1]?.available ?? 0);
    if (step !== 0) moves.push(step);
  }
  const falls = moves.filter((step) => step < 0);
  if (falls.length === 0) return undefined;
  const restock = Math.max(1, RESTOCK_STEPS * median(falls.map(Math.abs)));
  const used = -moves.filter((step) => step <= restock).reduce((sum, step) => sum + step, 0);
  const perDay = used / spanDays;
  if (!(perDay > 0)) return undefined;
  return { days: now.available / perDay, windowDays: Math.floor(spanDays) };
}
