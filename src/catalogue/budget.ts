/**
 * The narrow port through which the crawl reaches the ERP's search budget. The catalogue
 * never sees the ledger: `src/lookup/crawl-budget.ts` adapts today's ledger to this, so the
 * budget's owner can change its algorithm and re-point one adapter.
 */
export interface CrawlBudget {
  /** True while a user's lookup is waiting for the search budget: the crawl then holds back. */
  usersWaiting(): boolean;
  /**
   * How long until the crawl may send its next search (0: now). Positive while its share of
   * the window is spent, or while no slot would be left for a user.
   */
  waitMs(): number;
  /**
   * Sends one search on the shared budget (slot, 429 back-off, breaker, retries, timeout);
   * `signal` aborts when the attempt's time is up.
   */
  run<T>(search: (signal: AbortSignal) => Promise<T>): Promise<T>;
}
