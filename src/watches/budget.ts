/**
 * The port through which the checker reaches the getItem budget, and its adapter over the
 * lookup ledger: the checker is one more requester on the same ledger as users' lookups (so
 * the ERP never sees more than its limit), but it
 * - never uses more than `share` of the window's getItem calls (its own sliding count);
 * - never takes a slot while a user's lookup is queued, nor the last free slot;
 * - waits its turn in the fair queue like anyone else.
 * The same rules as the catalogue crawl's on the search budget (src/lookup/crawl-budget.ts).
 */
import type { BudgetAccess } from '../lookup/service.js';

export interface CheckBudget {
  /** True while a user's lookup waits for the getItem budget: the checker holds back. */
  usersWaiting(): boolean;
  /** How long until the checker may send its next getItem (0: now; Infinity: never). */
  waitMs(): number;
  /** Sends one getItem on the shared budget (slot, back-off, breaker, retries, timeout). */
  run<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

export const CHECK_REQUESTER = '(watch checks)';

export interface LedgerCheckBudgetOptions {
  access: BudgetAccess;
  /** WATCH_SHARE: 0..1 of `limit`. */
  share: number;
  /** getItem calls per window. */
  limit: number;
  windowMs: number;
  now?: () => number;
}

export function ledgerCheckBudget(options: LedgerCheckBudgetOptions): CheckBudget {
  const now = options.now ?? Date.now;
  const lane = options.access.lanes.getItem;
  const quota = options.share <= 0 ? 0 : Math.max(1, Math.floor(options.share * options.limit));
  const calls: Array<{ doneAt: number | undefined }> = [];
  const prune = (at: number) => {
    while (calls[0]?.doneAt !== undefined && calls[0].doneAt + options.windowMs <= at)
      calls.shift();
  };
  return {
    usersWaiting: () => lane.queue.usersWaiting(),
    waitMs() {
      if (quota === 0) return Number.POSITIVE_INFINITY;
      const at = now();
      prune(at);
      let wait = 0;
      if (calls.length >= quota) {
        const first = calls[0];
        wait =
          first?.doneAt === undefined ? options.windowMs : first.doneAt + options.windowMs - at;
      }
      // The second free slot: one is always left for a user who comes along meanwhile.
      return Math.max(wait, lane.ledger.startAt(1) - at, 0);
    },
    async run(call) {
      const entry = { doneAt: undefined as number | undefined };
      calls.push(entry);
      try {
        return await options.access.call('getItem', CHECK_REQUESTER, call);
      } finally {
        entry.doneAt = now();
      }
    },
  };
}
