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
    const alert = textOf(requireValue(alerts[0]).message);
    expect(alert).toContain('✅ Now yes: 40 of WIDGET-9 can be supplied company-wide: 45 free');
    expect(alert).not.toContain('Snooze');
    expect(alert).not.toContain('Stop watching');
    expect(alert).not.toContain('changes are told in this thread');
    expect(await rig.repo.activeWhere({ channelId: 'DALICE' })).toEqual([]);
    // Down and up again: nothing more, the watch is gone.
    rig.erp.stock.set('WIDGET-9', 10);
    await rig.nextRound();
    rig.erp.stock.set('WIDGET-9', 60);
    await rig.nextRound();
    expect(rig.slack.posts('DALICE')).toHaveLength(2);
  });

  it('in a channel, answers in the thread it was asked in, beside an ordinary watch', async () => {
    const { store } = await reopenable(storeCase, cleanups);
    const rig = makeRig(store);
    rig.erp.stock.set('WIDGET-9', 37);
    const inChannel = { ...base, channelId: 'CSALES', branch: undefined } as const;
    // The same person's ordinary watch on that item and direction stays what it is.
    const ordinary = { ...inChannel, code: 'WIDGET-9', direction: 'above', threshold: 45 } as const;
    expect(await rig.service.create(ordinary)).toMatchObject({ ok: true });
    const shot = { ...ordinary, threshold: 50, once: true, threadTs: '1700000000.000777' };
    expect(await rig.service.create(shot)).toMatchObject({ ok: true, past: false });
    const confirmation = rig.slack.replies('1700000000.000777');
    expect(confirmation).toHaveLength(1);
    expect(textOf(requireValue(confirmation[0]).message)).toContain(
      "I'll tell you here once when 50 of `WIDGET-9` can be supplied company-wide",
    );
    expect(await rig.repo.activeWhere({ channelId: 'CSALES' })).toHaveLength(2);
    rig.erp.stock.set('WIDGET-9', 62);
    await rig.nextRound();
    const told = rig.slack.replies('1700000000.000777');
    expect(told).toHaveLength(2);
    expect(textOf(requireValue(told[1]).message)).toContain(
      '✅ Now yes: 50 of WIDGET-9 can be supplied company-wide: 62 free',
    );
    // The ordinary watch alerted at the top of the channel, and stays; the one-shot is gone.
    const roots = rig.slack.roots('CSALES').map((p) => textOf(p.message));
    expect(roots.some((t) => t.includes('45 or more') && t.includes('Snooze'))).toBe(true);
    const left = await rig.repo.activeWhere({ channelId: 'CSALES' });
    expect(left.map((w) => [w.threshold, w.once])).toEqual([[45, 0]]);
  });

  it('when its thread was deleted, answers at the top of the conversation instead', async () => {
    const { store } = await reopenable(storeCase, cleanups);
    const rig = makeRig(store);
    rig.erp.stock.set('WIDGET-9', 3);
    const shot = { ...yes40, channelId: 'CSALES', threadTs: '1700000000.000888' } as const;
    expect(await rig.service.create(shot)).toMatchObject({ ok: true });
    rig.slack.refuse.set('CSALES', { error: 'thread_not_found', once: true });
    rig.erp.stock.set('WIDGET-9', 41);
    await rig.nextRound();
    const roots = rig.slack.roots('CSALES').map((p) => textOf(p.message));
    expect(roots).toEqual([expect.stringContaining('✅ Now yes: 40 of WIDGET-9')]);
    expect(await rig.repo.activeWhere({ channelId: 'CSALES' })).toEqual([]);
  });

  it('asked without a thread in a channel, answers under its own confirmation', async () => {
    const { store } = await reopenable(storeCase, cleanups);
    const rig = makeRig(store);
    rig.erp.stock.set('WIDGET-9', 3);
    const shot = { ...yes40, channelId: 'CSALES' } as const;
    expect(await rig.service.create(shot)).toMatchObject({ ok: true });
    const [confirmation] = rig.slack.roots('CSALES');
    rig.erp.stock.set('WIDGET-9', 41);
    await rig.nextRound();
    const replies = rig.slack.replies(requireValue(confirmation).ts);
    expect(replies.map((p) => textOf(p.message))).toEqual([
      expect.stringContaining('✅ Now yes: 40 of WIDGET-9'),
    ]);
    expect(rig.slack.roots('CSALES')).toHaveLength(1);
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
