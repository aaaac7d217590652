/**
 * Unmet demand where watches live, on every store: the No answers counted by item, branch and
 * day, the last seven days most asked first, bounded in days and rows, and nothing in the
 * table that could say who asked or where.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { WatchStore } from '../../src/watches/database.js';
import { DEMAND_DAYS, DemandRepository } from '../../src/watches/demand.js';
import { openFresh, requireValue, STORE_CASES, T0 } from './stores.js';

const DAY = 24 * 60 * 60_000;
const perth = { id: 2, name: 'Perth' };

describe.each(STORE_CASES)('unmet demand on $name', (storeCase) => {
  let store: WatchStore | undefined;
  let drop: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await store?.close();
    await drop?.();
    store = undefined;
    drop = undefined;
  });

  async function open(maxRows?: number): Promise<DemandRepository> {
    const opened = await openFresh(storeCase);
    store = opened.store;
    drop = opened.drop;
    return new DemandRepository(opened.store.db, maxRows);
  }

  it('counts by item and branch, the last seven days most asked first', async () => {
    const demand = await open();
    await demand.record('WIDGET-9', perth, T0);
    await demand.record('WIDGET-9', perth, T0 + 1000);
    await demand.record('WIDGET-9', perth, T0 - 2 * DAY);
    await demand.record('PUMP-1', undefined, T0);
    await demand.record('OLD-1', undefined, T0 - 8 * DAY);
    expect(await demand.recent(T0, 7, 10)).toEqual([
      { code: 'WIDGET-9', branchName: 'Perth', count: 3 },
      { code: 'PUMP-1', branchName: undefined, count: 1 },
    ]);
  });

  it('holds counts only: its columns name no person and no conversation', async () => {
    await open();
    const columns = await requireValue(store).db.introspection.getTables();
    const table = columns.find((t) => t.name === 'unmet_demand');
    expect(table?.columns.map((c) => c.name).sort()).toEqual(
      ['branch_key', 'branch_name', 'count', 'day', 'item_code'].sort(),
    );
  });

  it('is bounded: days past the limit go, and past the row limit the oldest go first', async () => {
    const demand = await open(3);
    await demand.record('OLD-1', undefined, T0 - (DEMAND_DAYS + 2) * DAY);
    await demand.record('A-1', undefined, T0 - 3 * DAY);
    await demand.record('B-1', undefined, T0 - 2 * DAY);
    await demand.record('C-1', undefined, T0 - DAY);
    await demand.record('D-1', undefined, T0);
    const rows = await sql<{ item_code: string }>`select item_code from unmet_demand`.execute(
      requireValue(store).db,
    );
    expect(rows.rows.map((r) => r.item_code).sort()).toEqual(['B-1', 'C-1', 'D-1']);
  });
});
