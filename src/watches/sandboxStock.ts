/**
 * The console's `set-stock`: sets a sandbox item's available quantity, then checks that
 * item's watches at once, so someone trying watches sees an alert within a minute instead of
 * waiting for real stock to move. Sandbox only: the data changed is the generated sandbox's,
 * in memory.
 */

import type { SandboxData } from '../sandbox/data.js';
import { moveSandboxStock } from '../sandbox/stock.js';
import type { WatchChecker } from './checker.js';

export interface StockSetting {
  code: string;
  /** The new available quantity (on hand minus allocated). */
  available: number;
  /** A branch id, name or the start of one name (3 letters or more); none: company-wide. */
  branch?: string;
}

export type StockSetOutcome =
  | {
      ok: true;
      code: string;
      branch: string | undefined;
      before: number;
      after: number;
      /**
       * Checks the item's watches now and posts what crossed; false when no watch is on it.
       * Separate, so the console can say what moved before the alert appears.
       */
      checkWatches(): Promise<boolean>;
    }
  | {
      ok: false;
      reason: 'unknown_item' | 'unknown_branch' | 'bad_quantity';
      /** With `unknown_branch`: the item's branches. */
      branches?: readonly string[];
    };

export function sandboxStockSetter(
  data: SandboxData,
  checker: Pick<WatchChecker, 'checkNow'>,
): (setting: StockSetting) => Promise<StockSetOutcome> {
  return async (setting) => {
    const item = data.items.find(
      (i) => i.record.code.toLowerCase() === setting.code.toLowerCase(),
    )?.record;
    if (item === undefined) return { ok: false, reason: 'unknown_item' };
    let branch: { id: number; name: string } | undefined;
    if (setting.branch !== undefined) {
      branch = findBranch(item.branches, setting.branch);
      if (branch === undefined) {
        return {
          ok: false,
          reason: 'unknown_branch',
          branches: item.branches.map((b) => b.name),
        };
      }
    }
    const moved = moveSandboxStock(data, item.code, {
      available: setting.available,
      ...(branch ? { branch: branch.id } : {}),
    });
    if (!moved.ok) return moved;
    return {
      ok: true,
      code: item.code,
      branch: branch?.name,
      before: moved.before,
      after: moved.after,
      checkWatches: () => checker.checkNow(item.code),
    };
  };
}

/** As the watch commands match branches: id, whole name, or the start of exactly one name. */
function findBranch(
  branches: ReadonlyArray<{ id: number; name: string }>,
  word: string,
): { id: number; name: string } | undefined {
  const w = word.trim().toLowerCase();
  if (w === '') return undefined;
  const exact = branches.find((b) => String(b.id) === w || b.name.toLowerCase() === w);
  if (exact) return exact;
  if (w.length < 3) return undefined;
  const starts = branches.filter((b) => b.name.toLowerCase().startsWith(w));
  return starts.length === 1 ? starts[0] : undefined;
}
