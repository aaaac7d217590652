/**
 * The sell price of an item the catalogue index has no price for. getItem carries no sell
 * price; the search rows do. So a card whose item the index knows without a price (or not at
 * all) may spend one search for its exact code, as one more background requester of the
 * search lane: only when that lane has room now (no user waiting, the share not spent, and a
 * slot left for a user), never waited for. The rows feed the index like any search, so the
 * next card of that item reads its price there; a code asked is not asked again for a while,
 * whatever came back. Decided in docs/erp-api.md ("The sell price on every card").
 */
import { LRUCache } from 'lru-cache';
import type { ErpApi } from '../erp/schemas.js';
import type { BackgroundBudget } from '../lookup/background.js';

/** How long a code asked is not asked again (its rows are in the index by then, or none was). */
const ASKED_MS = 10 * 60_000;
/** Rows asked for: the exact code ranks first (the ERP's ranking), a few more cover its case. */
const ROWS = 5;

export type SellPriceOf = (code: string) => Promise<number | undefined>;

export function sellPriceLookup(
  erp: Pick<ErpApi, 'searchItems'>,
  budget: Pick<BackgroundBudget, 'run' | 'waitMs' | 'usersWaiting'>,
  options: { now?: () => number } = {},
): SellPriceOf {
  const asked = new LRUCache<string, true>({
    max: 5_000,
    ttl: ASKED_MS,
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
  });
  return async (code) => {
    const key = code.toUpperCase();
    if (asked.has(key) || budget.usersWaiting() || budget.waitMs() > 0) return undefined;
    asked.set(key, true);
    try {
      const envelope = await budget.run((signal) =>
        erp.searchItems({ keywords: [code], limit: ROWS, offset: 0 }, { signal }),
      );
      return envelope.items.find((row) => row.code.toUpperCase() === key)?.price;
    } catch {
      // The card is drawn without a price: it never fails for want of one.
      return undefined;
    }
  };
}
