/**
 * What a watch makes of a fresh reading: pure functions, no I/O, so the crossing rules are
 * tested on their own.
 *
 * - Available is on hand minus allocated (what the inventory tools compare), at the branch or
 *   company-wide, kept as the ERP's figures give it: below zero is over-allocated, and the
 *   messages say so (shown as 0 it would hide that more is promised than held). Thresholds are
 *   0 or more, so a negative quantity crosses exactly as 0 would.
 * - `below N` is past while available < N; `above N` while available >= N. `above 0` would
 *   always be past: it means "back in stock", available > 0, and re-arms when the item is out
 *   of stock (or over-allocated) again.
 * - Hysteresis: a past watch re-arms only once the quantity is back on the other side by a
 *   margin, a tenth of the threshold and at least 1, so a wobble around the line is one alert.
 */
import type { Item } from '../erp/schemas.js';
import type { WatchDirection } from './schema.js';

interface Reading {
  available: number;
  onOrder: number;
}

/** Undefined when the branch is no longer in the item's record. */
export function readItem(item: Item, branchId: number | undefined): Reading | undefined {
  if (branchId === undefined) {
    return { available: item.soh - item.allocated, onOrder: item.onorder };
  }
  const branch = item.branches.find((b) => b.id === branchId);
  if (branch === undefined) return undefined;
  return { available: branch.soh - branch.allocated, onOrder: branch.onorder };
}

export function isPast(direction: WatchDirection, threshold: number, available: number): boolean {
  if (direction === 'below') return available < threshold;
  return available >= threshold && available > 0;
}

export function rearmMargin(threshold: number): number {
  return Math.max(1, Math.abs(threshold) / 10);
}

/** Back on the armed side, by the margin. */
export function isRearmed(
  direction: WatchDirection,
  threshold: number,
  available: number,
): boolean {
  const margin = rearmMargin(threshold);
  if (direction === 'below') return available >= threshold + margin;
  return threshold <= 0 ? available <= 0 : available < threshold - margin;
}

type Transition =
  /** Nothing to say: record the reading. */
  | { kind: 'quiet' }
  /** Crossed: announce it (before → now). */
  | { kind: 'cross'; before: number | null }
  /** Still past, and the quantity moved: update the alert in place. */
  | { kind: 'update' }
  /** Back by the margin: armed again (the alert, if any, says so). */
  | { kind: 'rearm' };

interface WatchPosition {
  state: 'armed' | 'past';
  direction: WatchDirection;
  threshold: number;
  lastAvailable: number | null;
}

export function transition(watch: WatchPosition, reading: Reading): Transition {
  const { direction, threshold } = watch;
  if (watch.state === 'armed') {
    return isPast(direction, threshold, reading.available)
      ? { kind: 'cross', before: watch.lastAvailable }
      : { kind: 'quiet' };
  }
  if (isRearmed(direction, threshold, reading.available)) return { kind: 'rearm' };
  return reading.available !== watch.lastAvailable ? { kind: 'update' } : { kind: 'quiet' };
}
