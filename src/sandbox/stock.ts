/**
 * Moving a sandbox item's stock, so that someone trying watches sees an alert within a
 * minute instead of waiting for real stock to move. Sandbox only: it changes the generated
 * data in memory, which the sandbox serves live on its next getItem; nothing here can reach
 * a real ERP.
 */
import type { BranchStockRecord, ItemRecord, SandboxData } from './types.js';

export interface StockMove {
  /** The item's new available quantity (on hand minus allocated), at `branch` or company-wide. */
  available: number;
  /** A branch id or name (case-insensitive); undefined: company-wide. */
  branch?: number | string;
}

export type StockMoveResult =
  | { ok: true; item: ItemRecord; before: number; after: number }
  | { ok: false; reason: 'unknown_item' | 'unknown_branch' | 'bad_quantity' };

export function moveSandboxStock(
  data: SandboxData,
  code: string,
  move: StockMove,
): StockMoveResult {
  if (!Number.isFinite(move.available) || move.available < 0 || move.available > 1e9) {
    return { ok: false, reason: 'bad_quantity' };
  }
  const item = data.items.find((i) => i.record.code.toLowerCase() === code.toLowerCase())?.record;
  if (item === undefined) return { ok: false, reason: 'unknown_item' };
  const target = Math.round(move.available);
  if (move.branch !== undefined) {
    const word = String(move.branch).toLowerCase();
    const branch = item.branches.find(
      (b) => String(b.id) === word || b.name.toLowerCase() === word,
    );
    if (branch === undefined) return { ok: false, reason: 'unknown_branch' };
    const before = branch.available;
    setAvailable(branch, target);
    total(item);
    return { ok: true, item, before, after: branch.available };
  }
  const before = item.available;
  // Company-wide: every branch down to what is allocated, the first one holding the rest.
  for (const [index, branch] of item.branches.entries()) {
    setAvailable(branch, index === 0 ? target : 0);
  }
  if (item.branches.length === 0) {
    item.soh = item.allocated + target;
    item.available = target;
  } else total(item);
  return { ok: true, item, before, after: item.available };
}

function setAvailable(branch: BranchStockRecord, available: number): void {
  branch.soh = branch.allocated + available;
  branch.available = available;
}

function total(item: ItemRecord): void {
  const sum = (key: 'soh' | 'allocated' | 'onorder' | 'available') =>
    item.branches.reduce((n, b) => n + b[key], 0);
  item.soh = sum('soh');
  item.allocated = sum('allocated');
  item.onorder = sum('onorder');
  item.available = sum('available');
}
