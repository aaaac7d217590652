import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createWatches, type Watches } from '../../src/watches/index.js';
import { silentLogger } from '../lookup/fakes.js';
import { FakeErp, FakeSlack, freeBudget, LIMITS } from './rig.js';

const base = { teamId: 'T1', channelId: 'C1', userId: 'U1', branch: undefined } as const;

describe('createWatches', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function build(
    dataDir: string,
    registry = new Registry(),
  ): { watches: Watches; erp: FakeErp; slack: FakeSlack } {
    const erp = new FakeErp();
    const slack = new FakeSlack();
    const watches = createWatches({
      store: { kind: 'sqlite', dataDir, driver: 'sql.js' },
      erp,
      fetchItem: (code) => erp.getItem({ code }),
      budget: freeBudget,
      poster: slack,
      limits: LIMITS,
      logger: silentLogger,
      registry,
      tickMs: 60_000,
    });
    cleanups.push(() => watches.close());
    return { watches, erp, slack };
  }

  it('opens the store only when watches are used, and again at start once it holds watches', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watches-compose-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const registry = new Registry();
    const first = build(dir, registry);
    await first.watches.start();
    expect(await first.watches.databaseReady()).toBeUndefined();
    expect(await first.watches.checker.tick()).toMatchObject({ held: false });
    first.erp.stock.set('WIDGET-9', 30);
    expect(
      await first.watches.service.create({
        ...base,
        code: 'WIDGET-9',
        direction: 'below',
        threshold: 20,
      }),
    ).toMatchObject({ ok: true });
    expect(await first.watches.databaseReady()).toBe(true);
    await first.watches.checker.tick();
    expect(await registry.getSingleMetricAsString('watches')).toContain('watches{state="armed"} 1');
    expect(await registry.getSingleMetricAsString('watch_check_interval_seconds')).toContain(' 60');
    await first.watches.close();

    const second = build(dir);
    await second.watches.start();
    expect(await second.watches.databaseReady()).toBe(true);
    expect((await second.watches.service.listChannel('C1')).watches.map((w) => w.code)).toEqual([
      'WIDGET-9',
    ]);
  });

  it('says watches are off when several replicas share Redis without a database', async () => {
    const erp = new FakeErp();
    const watches = createWatches({
      store: { kind: 'sqlite', dataDir: undefined, driver: 'sql.js' },
      erp,
      fetchItem: (code) => erp.getItem({ code }),
      budget: freeBudget,
      poster: new FakeSlack(),
      limits: LIMITS,
      logger: silentLogger,
      disabled: 'shared_without_database',
    });
    cleanups.push(() => watches.close());
    expect(
      await watches.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 1 }),
    ).toEqual({
      ok: false,
      refusal: { reason: 'watches_off_shared_without_database' },
    });
    expect(await watches.databaseReady()).toBeUndefined();
  });

  it('counts a No answered just before close, instead of losing it to the closed database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watches-demand-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const first = build(dir).watches;
    first.demand.noAnswered('WIDGET-9', { id: 3, name: 'Perth' });
    await first.close();
    const again = build(dir).watches;
    expect(await again.demand.recent(7, 10)).toEqual([
      { code: 'WIDGET-9', branchName: 'Perth', count: 1 },
    ]);
  });
});
