/**
 * Unmet demand for purchasing: how many times the app answered "No" for an item (at a branch,
 * or company-wide), a row per item, branch and UTC day. Counts only: nothing says who asked or
 * in which conversation. Bounded: rows older than `DEMAND_DAYS` days are dropped, and past
 * `DEMAND_MAX_ROWS` rows the oldest days go first.
 */
import { type Kysely, sql } from 'kysely';
import type { WatchDatabase } from './schema.js';

const DAY_MS = 24 * 60 * 60_000;
export const DEMAND_DAYS = 90;
export const DEMAND_MAX_ROWS = 10_000;

export interface DemandRow {
  code: string;
  branchName: string | undefined;
  count: number;
}

const dayOf = (at: number) => Math.floor(at / DAY_MS);

export class DemandRepository {
  constructor(
    private readonly db: Kysely<WatchDatabase>,
    private readonly maxRows = DEMAND_MAX_ROWS,
  ) {}

  /** One more No for `code` at `branch` (undefined: company-wide) on the day of `at`. */
  async record(
    code: string,
    branch: { id: number; name: string } | undefined,
    at: number,
  ): Promise<void> {
    const day = dayOf(at);
    await this.db
      .insertInto('unmet_demand')
      .values({
        item_code: code,
        branch_key: branch === undefined ? '' : String(branch.id),
        branch_name: branch?.name ?? null,
        day,
        count: 1,
      })
      .onConflict((oc) =>
        oc
          .columns(['item_code', 'branch_key', 'day'])
          .doUpdateSet({ count: sql`unmet_demand.count + 1`, branch_name: branch?.name ?? null }),
      )
      .execute();
    await this.prune(at);
  }

  /** Drops what is past the bounds: old days, then the oldest rows over the row limit. */
  async prune(at: number): Promise<void> {
    await this.db
      .deleteFrom('unmet_demand')
      .where('day', '<', dayOf(at) - DEMAND_DAYS)
      .execute();
    const { rows } = await this.db
      .selectFrom('unmet_demand')
      .select((eb) => eb.fn.countAll<number>().as('rows'))
      .executeTakeFirstOrThrow();
    const over = Number(rows) - this.maxRows;
    if (over <= 0) return;
    const oldest = await this.db
      .selectFrom('unmet_demand')
      .select(['item_code', 'branch_key', 'day'])
      .orderBy('day')
      .orderBy('count')
      .limit(over)
      .execute();
    for (const row of oldest) {
      await this.db
        .deleteFrom('unmet_demand')
        .where('item_code', '=', row.item_code)
        .where('branch_key', '=', row.branch_key)
        .where('day', '=', row.day)
        .execute();
    }
  }

  /** The last `days` days (today included), most asked first, at most `limit` rows. */
  async recent(at: number, days: number, limit: number): Promise<DemandRow[]> {
    const rows = await this.db
      .selectFrom('unmet_demand')
      .select(['item_code', 'branch_key', (eb) => eb.fn.sum<number>('count').as('total')])
      .select((eb) => eb.fn.max('branch_name').as('branch_name'))
      .where('day', '>', dayOf(at) - days)
      .groupBy(['item_code', 'branch_key'])
      .orderBy('total', 'desc')
      .orderBy('item_code')
      .orderBy('branch_key')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      code: row.item_code,
      branchName: row.branch_name ?? undefined,
      count: Number(row.total),
    }));
  }
}
