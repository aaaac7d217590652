/**
 * A user's lookup counts as a check: each item a lookup reads from the ERP (the client's
 * `itemRead` event, which the composition root hands to `offer`) that someone watches goes to
 * the tracker. The user's answer never waits for it: the reading is recorded in
 * the background, and a failure to record is logged, never shown.
 */
import type { ErpEvents } from '../erp/events.js';
import type { Item } from '../erp/schemas.js';
import { type AppLogger, errorFields } from '../log/logger.js';
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

/** Each item people's lookups read is offered to the feed (the checker's own reads are not). */
export function feedWatches(events: ErpEvents, feed: WatchFeed, now: () => number): void {
  events.on('itemRead', ({ item, background }) => {
    if (!background) void feed.offer(item, now());
  });
}
