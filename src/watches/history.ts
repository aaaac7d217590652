/**
 * The observed history of watched items, kept for days of cover (src/watches/cover.ts): one
 * row per item, branch and point in time, written by the tracker from readings it already has
 * (a check or a user's lookup), so history costs no ERP call.
 *
 * Bounded: at most `HISTORY_DAYS` days (older points are pruned every hour) and at most
 * one point per reading. Fewer in practice: a point is kept only when the quantity moved, or
 * when the last one is `HEARTBEAT_MS` old (so a flat item's history still says how long it has
 * been flat), and never two within `SPACING_MS` (so a burst of lookups is one point).
 */
import type { Kysely } from 'kysely';
import { type Cover, daysOfCover, HISTORY_DAYS, type HistoryPoint } from './cover.js';
import type { WatchDatabase } from './schema.js';

const DAY_MS = 24 * 60 * 60_000;
const SPACING_MS = 15 * 60_000;
export const HEARTBEAT_MS = 6 * 60 * 60_000;

export class HistoryRepository {
  constructor(private readonly db: Kysely<WatchDatabase>) {}

  /** Records a reading if the rules above keep it; true when a point was written. */
  async record(code: string, branchKey: string, at: number, available: number): Promise<boolean> {
    const last = await this.db
      .selectFrom('watch_history')
      .select(['at', 'available'])
      .where('item_code', '=', code)
      .where('branch_key', '=', branchKey)
      .orderBy('at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (last !== undefined) {
      const age = at - Number(last.at);
      if (age < SPACING_MS) return false;
      if (last.available === available && age < HEARTBEAT_MS) return false;
    }
    await this.db
      .insertInto('watch_history')
      .values({ item_code: code, branch_key: branchKey, at, available })
      .onConflict((oc) => oc.columns(['item_code', 'branch_key', 'at']).doNothing())
      .execute();
    return true;
  }

  /** Drops points older than `HISTORY_DAYS` (run with the hourly sweep, not on every reading). */
  async prune(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('watch_history')
      .where('at', '<', now - HISTORY_DAYS * DAY_MS)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async points(code: string, branchKey: string): Promise<HistoryPoint[]> {
    const rows = await this.db
      .selectFrom('watch_history')
      .select(['at', 'available'])
      .where('item_code', '=', code)
      .where('branch_key', '=', branchKey)
      .orderBy('at')
      .execute();
    return rows.map((r) => ({ at: Number(r.at), available: r.available }));
  }

  /** A watch's days of cover from its item's history and its last reading (no ERP call). */
  async coverOf(watch: {
    item_code: string;
    branch_key: string;
    last_available: number | null;
    last_checked_at: number | null;
  }): Promise<Cover | undefined> {
    if (watch.last_available === null || watch.last_checked_at === null) return undefined;
    const points = await this.points(watch.item_code, watch.branch_key);
    return daysOfCover(points, { at: watch.last_checked_at, available: watch.last_available });
  }

  /** Drops the history no active watch reads any more (a removed or switched-off watch's). */
  async forgetUnwatched(): Promise<number> {
    const result = await this.db
      .deleteFrom('watch_history')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('watches')
              .select('watches.id')
              .whereRef('watches.item_code', '=', 'watch_history.item_code')
              .whereRef('watches.branch_key', '=', 'watch_history.branch_key')
              .where('watches.state', '!=', 'off'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
