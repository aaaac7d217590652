import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openWatchStore, type WatchStore } from '../../src/watches/database.js';
import { WatchRepository } from '../../src/watches/repository.js';
import { newWatch, openFresh, requireValue, STORE_CASES, T0 } from './stores.js';

describe.each(STORE_CASES)('watch repository on $name', (storeCase) => {
  let store: WatchStore | undefined;
  let drop: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await store?.close();
    await drop?.();
    store = undefined;
    drop = undefined;
  });

  async function open(): Promise<WatchRepository> {
    const opened = await openFresh(storeCase);
    store = opened.store;
    drop = opened.drop;
    return new WatchRepository(opened.store.db);
  }

  it('records its migrations and applies them once across reopenings', async () => {
    await open();
    const first = await sql<{ name: string }>`select name from watch_migrations`.execute(
      requireValue(store).db,
    );
    expect(first.rows.map((r) => r.name)).toEqual([
      '0001_watches',
      '0002_threads_history_digests',
      '0003_unmet_demand',
      '0004_one_shot_watches',
      '0005_one_shot_threads',
      '0006_digest_demand',
    ]);
  });

  it('creates, lists and replaces a watch on the same channel, item, branch and direction', async () => {
    const repo = await open();
    const created = await repo.upsert(newWatch());
    expect(created).toMatchObject({
      item_code: 'WIDGET-9',
      state: 'armed',
      threshold: 20,
      last_available: 30,
      last_checked_at: T0,
    });
    const moved = await repo.upsert(newWatch({ threshold: 5, at: T0 + 1000 }));
    expect(moved.id).toBe(created.id);
    expect(moved.threshold).toBe(5);
    await repo.upsert(newWatch({ direction: 'above', threshold: 100 }));
    await repo.upsert(newWatch({ branch: { id: 3, name: 'Perth' } }));
    await repo.upsert(newWatch({ channelId: 'C2', creatorId: 'U2', itemCode: 'BOLT-1' }));
    expect(await repo.countActiveInChannel('C1')).toBe(3);
    expect((await repo.listByChannel('C1')).map((w) => [w.direction, w.branch_key])).toEqual(
      expect.arrayContaining([
        ['below', ''],
        ['above', ''],
        ['below', '3'],
      ]),
    );
    expect((await repo.listByCreator('U2')).map((w) => w.item_code)).toEqual(['BOLT-1']);
    expect((await repo.activeItems()).map((i) => i.code).sort()).toEqual(['BOLT-1', 'WIDGET-9']);
  });

  it('compare-and-set lets exactly one of two writers with the same version through', async () => {
    const repo = await open();
    const watch = await repo.upsert(newWatch());
    const results = await Promise.all([
      repo.compareAndSet(watch, { last_available: 1 }),
      repo.compareAndSet(watch, { last_available: 2 }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await repo.get(watch.id))?.version).toBe(watch.version + 1);
  });

  it('an owed alert is claimed by one caller only, and a stale claim can be taken again', async () => {
    const repo = await open();
    const watch = await repo.upsert(newWatch());
    await repo.compareAndSet(watch, { state: 'past', alert_owed: 1, crossings: 1 });
    const owed = requireValue(await repo.get(watch.id));
    const claims = await Promise.all([
      repo.claimAlert(owed, T0, T0 - 1),
      repo.claimAlert(owed, T0, T0 - 1),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await repo.claimAlert(owed, T0 + 1, T0 - 1)).toBe(false);
    expect(await repo.claimAlert(owed, T0 + 10 * 60_000, T0 + 1)).toBe(true);
    await repo.rootPosted(owed, '1700000000.000100');
    expect(await repo.turnTold(owed, 12)).toBe(true);
    expect(await repo.get(watch.id)).toMatchObject({
      alert_owed: 0,
      alert_ts: '1700000000.000100',
      alert_shown: 12,
    });
  });

  it('removes by code and branch, snoozes, switches off once and tells once', async () => {
    const repo = await open();
    const all = await repo.upsert(newWatch());
    await repo.upsert(newWatch({ branch: { id: 3, name: 'Perth' } }));
    const perth = requireValue((await repo.listByChannel('C1')).find((w) => w.branch_key === '3'));
    expect((await repo.remove(perth.id))?.branch_key).toBe('3');
    const snoozed = await repo.snooze(all.id, T0 + 86_400_000, T0);
    expect(snoozed?.snoozed_until).toBe(T0 + 86_400_000);
    expect(await repo.switchOff(all, 'is_archived', T0)).toBe(true);
    expect(await repo.switchOff(all, 'is_archived', T0)).toBe(false);
    expect((await repo.claimOffNotices([all.id])).map((w) => w.off_reason)).toEqual([
      'is_archived',
    ]);
    expect(await repo.claimOffNotices([all.id])).toEqual([]);
    expect(await repo.countByState()).toEqual({ armed: 0, past: 0, off: 1 });
  });

  it('keeps watches across a restart', async () => {
    const opened = await openFresh(storeCase);
    drop = opened.drop;
    await new WatchRepository(opened.store.db).upsert(newWatch());
    await opened.store.close();
    store = await openWatchStore(opened.options);
    expect(
      (await new WatchRepository(store.db).listByChannel('C1')).map((w) => w.item_code),
    ).toEqual(['WIDGET-9']);
  });
});

describe('the migrator on PostgreSQL', () => {
  it('applies the migrations once when two replicas start together (advisory lock)', async () => {
    const pgCase = requireValue(STORE_CASES.find((c) => c.name === 'postgres'));
    const { options, drop } = await pgCase.fresh();
    try {
      const stores = await Promise.all([
        openWatchStore(options),
        openWatchStore(options),
        openWatchStore(options),
      ]);
      const rows = await sql<{ name: string }>`select name from watch_migrations`.execute(
        requireValue(stores[0]).db,
      );
      expect(rows.rows).toEqual([
        { name: '0001_watches' },
        { name: '0002_threads_history_digests' },
        { name: '0003_unmet_demand' },
        { name: '0004_one_shot_watches' },
        { name: '0005_one_shot_threads' },
        { name: '0006_digest_demand' },
      ]);
      await Promise.all(stores.map((s) => s.close()));
    } finally {
      await drop();
    }
  });
});
