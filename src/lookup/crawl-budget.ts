/**
 * The catalogue crawl's budget: a background requester on the searchItems lane (see
 * background.ts), adapted to the catalogue's narrow port. Its calls take slots from the same
 * ledger as users' searches (so the ERP never sees more than its limit, and a 429 pauses
 * everyone alike); the ledger holds it to its share of the window, and it takes no slot while
 * a user waits, nor the last free one.
 */
import type { CrawlBudget } from '../catalogue/budget.js';
import { ERP_ENDPOINTS, type ErpEndpoint } from '../erp/errors.js';
import type { Upstream } from './upstream.js';

export const CRAWL_REQUESTER = '(catalogue crawl)';

/** CATALOGUE_CRAWL_SHARE (0..1 of the search limit) as the crawl's budget port. */
export function ledgerCrawlBudget(upstream: Upstream, share: number): CrawlBudget {
  return upstream.background('searchItems', CRAWL_REQUESTER, share);
}

export interface EndpointBudget {
  endpoint: ErpEndpoint;
  /** Calls that could start now, of `limit` per window. */
  left: number;
  limit: number;
}

/** For App Home: how much of each endpoint's budget is free this minute, and the breaker. */
export function budgetStatus(
  upstream: Upstream,
  now: () => number = Date.now,
): { endpoints: EndpointBudget[]; breaker: 'closed' | 'open' | 'half-open' } {
  const at = now();
  const endpoints = ERP_ENDPOINTS.map((endpoint) => {
    const { ledger } = upstream.lanes[endpoint];
    const { limit } = ledger;
    // Estimates are O(1) each (src/lookup/ledger.ts); a limit is at most a few hundred.
    let left = 0;
    while (left < limit && ledger.startAt(left) <= at) left += 1;
    return { endpoint, left, limit };
  });
  const states = ERP_ENDPOINTS.map((endpoint) => upstream.breakerState(endpoint));
  const breaker = states.includes('open')
    ? 'open'
    : states.includes('half-open')
      ? 'half-open'
      : 'closed';
  return { endpoints, breaker };
}
