/**
 * A user's lookup counts as a check: a decorator over the ERP the lookup service calls (as
 * `src/catalogue/observe.ts` feeds the catalogue), handing each fetched item that someone
 * watches to the tracker. The user's answer never waits for it: the reading is recorded in
 * the background, and a failure to record is logged, never shown.
 */
import type { ErpApi } from '../erp/api.js';
import type { Item } from '../erp/schemas.js';
import type { AppLogger } from '../log/logger.js';
import { errorFields } from '../log/logger.js';
import type { WatchMetrics } from './metrics.js';

export interface WatchFeed {
  /** The codes watched now (refreshed by the checker and on each change). */
  setWatched(codes: ReadonlySet<string>): void;
  /** Records a freshly fetched item if it is watched; resolves when recorded (tests wait). */
  offer(item: Item, at: number): Promise<void>;
}

export function watchFeed(
  observe: (item: Item, at: number) => Promise<void>,
  logger: AppLogger,
  metrics?: WatchMetrics,
): WatchFeed {
  let watched: ReadonlySet<string> = new Set();
  return {
    setWatched(codes) {
      watched = codes;
    },
    async offer(item, at) {
      if (!watched.has(item.code)) return;
      try {
        await observe(item, at);
        metrics?.checks.inc({ source: 'lookup', outcome: 'ok' });
      } catch (error) {
        logger.warn({ err: errorFields(error) }, 'a lookup could not be recorded as a watch check');
      }
    },
  };
}

export function watchFeedErp(erp: ErpApi, feed: WatchFeed, now: () => number = Date.now): ErpApi {
  return {
    credentialKey: erp.credentialKey,
    getItem: async (ref, options) => {
      const item = await erp.getItem(ref, options);
      void feed.offer(item, now());
      return item;
    },
    searchItems: (params, options) => erp.searchItems(params, options),
    getContact: (ref, options) => erp.getContact(ref, options),
    searchContact: (params, options) => erp.searchContact(params, options),
  };
}
