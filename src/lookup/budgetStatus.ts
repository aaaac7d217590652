/**
 * How much of each endpoint's budget is free this minute, and the breaker: App Home's ERP
 * status line.
 */
import { ERP_ENDPOINTS, type ErpEndpoint } from '../erp/errors.js';
import type { Upstream } from './upstream.js';

interface EndpointBudget {
  endpoint: ErpEndpoint;
  /** Calls that could start now, of `limit` per window. */
  left: number;
  limit: number;
}

/** The ERP's status as App Home shows it. */
export interface ErpStatus {
  sandbox: boolean;
  endpoints: EndpointBudget[];
  breaker: 'closed' | 'open' | 'half-open';
}

/** For App Home: how much of each endpoint's budget is free this minute, and the breaker. */
export function budgetStatus(upstream: Upstream): Omit<ErpStatus, 'sandbox'> {
  const endpoints = ERP_ENDPOINTS.map((endpoint) => {
    const { ledger } = upstream.lanes[endpoint];
    const { limit } = ledger;
    // Estimates are O(1) each (src/lookup/ledger.ts); a limit is at most a few hundred.
    let left = 0;
    while (left < limit && ledger.waitMs(left) === 0) left += 1;
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
