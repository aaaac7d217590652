/**
 * The catalogue crawl's budget (issue 16), adapted from today's ledger: the crawl's calls take
 * slots from the same ledger as users' searches (so the ERP never sees more than its limit,
 * and a 429 blocks everyone alike), but the crawl
 * - never uses more than `share` of the window's searches (its own sliding count);
 * - never takes a slot while a user's search is queued, nor the last free slot;
 * - waits its turn in the fair queue as one more requester.
 */
import type { CrawlBudget } from '../catalogue/budget.js';
import { ERP_ENDPOINTS, type ErpEndpoint } from '../erp/errors.js';
import type { BudgetAccess } from './service.js';

export const CRAWL_REQUESTER = '(catalogue crawl)';

export interface LedgerCrawlBudgetOptions {
  access: BudgetAccess;
  /** CATALOGUE_CRAWL_SHARE: 0..1 of `limit`. */
  share: number;
  /** Searches per window (ERP_SEARCH_LIMIT_PER_MINUTE). */
  limit: number;
  windowMs: number;
  now?: () => number;
}

export function ledgerCrawlBudget(options: LedgerCrawlBudgetOptions): CrawlBudget {
  const now = options.now ?? Date.now;
  const lane = options.access.lanes.searchItems;
  const quota = options.share <= 0 ? 0 : Math.max(1, Math.floor(options.share * options.limit));
  /** Crawl calls: sent, and finished (undefined while in flight). */
  const calls: Array<{ sentAt: number; doneAt: number | undefined }> = [];
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
      const second = lane.ledger.startAt(1);
      return Math.max(wait, second - at, 0);
    },
    async run(search) {
      const call = { sentAt: now(), doneAt: undefined as number | undefined };
      calls.push(call);
      try {
        return await options.access.call('searchItems', CRAWL_REQUESTER, search);
      } finally {
        call.doneAt = now();
      }
    },
  };
}

export interface EndpointBudget {
  endpoint: ErpEndpoint;
  /** Calls that could start now, of `limit` per window. */
  left: number;
  limit: number;
}

/** For App Home: how much of each endpoint's budget is free this minute, and the breaker. */
export function budgetStatus(
  access: BudgetAccess,
  limits: { getPerMinute: number; searchPerMinute: number },
  now: () => number = Date.now,
): { endpoints: EndpointBudget[]; breaker: 'closed' | 'open' | 'half-open' } {
  const at = now();
  const endpoints = ERP_ENDPOINTS.map((endpoint) => {
    const limit = endpoint.startsWith('search') ? limits.searchPerMinute : limits.getPerMinute;
    const { ledger } = access.lanes[endpoint];
    // Estimates are O(1) each (src/lookup/ledger.ts); a limit is at most a few hundred.
    let left = 0;
    while (left < limit && ledger.startAt(left) <= at) left += 1;
    return { endpoint, left, limit };
  });
  const states = ERP_ENDPOINTS.map((endpoint) => access.breakerState(endpoint));
  const breaker = states.includes('open')
    ? 'open'
    : states.includes('half-open')
      ? 'half-open'
      : 'closed';
  return { endpoints, breaker };
}
