/**
 * The port through which the checker reaches the getItem budget, and its adapter over the
 * ledger's background requester (src/lookup/background.ts): the checker is one more requester
 * on the same ledger as users' lookups (so the ERP never sees more than its limit), but it
 * - never holds more than `share` of the window's getItem calls (the ledger counts, across
 *   replicas when the budget lives in Redis);
 * - never takes a slot while a user's lookup is queued, nor the last free slot;
 * - never queues: it asks, and a tick that is told "not now" stops until the next one.
 * The same rules as the catalogue crawl's on the search budget (src/lookup/crawl-budget.ts).
 */
import type { Upstream, UpstreamCall } from '../lookup/upstream.js';

export interface CheckBudget {
  /** True while a user's lookup waits for the getItem budget: the checker holds back. */
  usersWaiting(): boolean;
  /** How long until the checker may send its next getItem (0: now; Infinity: never). */
  waitMs(): number;
  /** Sends one getItem on the shared budget (slot, back-off, breaker, retries, timeout). */
  run<T>(call: UpstreamCall<T>): Promise<T>;
}

/** The checker's name on the ledger (its share is counted under it). */
export const CHECK_REQUESTER = '(watch checks)';

/** WATCH_SHARE (0..1 of the getItem limit) as the checker's budget port. */
export function ledgerCheckBudget(upstream: Upstream, share: number): CheckBudget {
  return upstream.background('getItem', CHECK_REQUESTER, share);
}
