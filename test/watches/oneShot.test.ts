/**
 * "Tell me when it's Yes": a one-shot watch answers once when the verdict turns, then is gone;
 * across a restart, and with two replicas on one database, it still answers exactly once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { textOf } from '../helpers/blocks.js';
import { FakeErp, FakeSlack, makeRig } from './rig.js';
import { reopenable, requireValue, STORE_CASES, T0 } from './stores.js';

const base = { teamId: 'T1', channelId: 'DALICE', userId: 'U0ALICE', branch: undefined } as const;
const yes40 = { ...base, code: 'WIDGET-9', direction: 'above', threshold: 40, once: true } as const;

describe.each(STORE_CASES)('one-shot watches on $name', (storeCase) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('answers once in the conversation when the stock arrives, then removes itself', async () => {
    const { store } = await reopenable(storeCase, cleanups);
    const rig = makeRig(store);
    rig.erp.stock.set('WIDGET-9', 37);
    expect(await rig.service.create(yes40)).toMatchObject({ ok: true, past: false });
    await rig.nextRound();
    expect(rig.slack.roots('DALICE')).toHaveLength(1); // the confirmation only
    rig.erp.stock.set('WIDGET-9', 45);
    await rig.nextRound();
    const alerts = rig.slack.roots('DALICE').slice(1);
    expect(alerts).toHaveLength(1);
    expect(textOf(requireValue(alerts[0]).message)).toContain('45 available');
    expect(await rig.repo.activeWhere({ channelId: 'DALICE' })).toEqual([]);
    // Down and up again: nothing more, the watch is gone.
    rig.erp.stock.set('WIDGET-9', 10);
    await rig.nextRound();
    rig.erp.stock.set('WIDGET-9', 60);
    await rig.nextRound();
    expect(rig.slack.posts('DALICE')).toHaveLength(2);
  });

  // sql.js holds the file in memory per connection, so two of them are no replicas (several
  // replicas need PostgreSQL, or node:sqlite's file, anyway).
  it.skipIf(storeCase.name === 'sql.js')(
    'across a restart and with two replicas, it answers exactly once',
    async () => {
      const opened = await reopenable(storeCase, cleanups);
      const clock = { now: T0 };
      const slack = new FakeSlack();
      const erp = new FakeErp();
      erp.stock.set('WIDGET-9', 37);
      const first = makeRig(opened.store, { clock, slack, erp });
      expect(await first.service.create(yes40)).toMatchObject({ ok: true });
      // The replica restarts; a second one runs on the same database.
      const a = makeRig(await opened.reopen(), { clock, slack, erp });
      const b = makeRig(await opened.another(), { clock, slack, erp });
      erp.stock.set('WIDGET-9', 41);
      await Promise.all([a.nextRound(), b.nextRound()]);
      await Promise.all([a.nextRound(), b.nextRound()]);
      expect(slack.roots('DALICE').slice(1)).toHaveLength(1);
      expect(await a.repo.activeWhere({ channelId: 'DALICE' })).toEqual([]);
    },
  );
});
