/**
 * What issue 33 adds, on every store with a clock the test moves (never a real wait): the
 * observed history and its bounds, days of cover only with enough history, Snooze and Stop
 * watching said in the thread with who, notify's mentions on the alert, and the daily digest
 * sent once at its minute, across a restart and two replicas, and not after `off`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HEARTBEAT_MS } from '../../src/watches/history.js';
import { textOf } from '../helpers/blocks.js';
import { FakeErp, FakeSlack, makeRig } from './rig.js';
import { reopenable, requireValue, STORE_CASES } from './stores.js';

const base = { teamId: 'T1', channelId: 'C1', userId: 'U1', branch: undefined } as const;
const DAY = 24 * 60 * 60_000;
const HOUR = 60 * 60_000;

describe.each(STORE_CASES)('watch stories on $name', (storeCase) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const fresh = () => reopenable(storeCase, cleanups);

  it('keeps history bounded (30 days, one point a check at most) and gives days of cover only after 3 days', async () => {
    const rig = makeRig((await fresh()).store);
    rig.erp.stock.set('WIDGET-9', 1000);
    await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    await rig.service.create({
      ...base,
      code: 'WIDGET-9',
      direction: 'above',
      threshold: 5000,
    });
    const coverNow = async () =>
      (await rig.service.listChannel('C1')).watches.map((w) => w.cover?.windowDays);
    // 40 days, a check every 3 hours, 12 used a day; a burst of lookups counts once.
    for (let hour = 3; hour <= 40 * 24; hour += 3) {
      rig.clock.now += 3 * HOUR;
      rig.erp.stock.set('WIDGET-9', 1000 - Math.floor(hour / 2));
      const item = await rig.erp.getItem({ code: 'WIDGET-9' });
      await rig.tracker.observe(item, rig.clock.now);
      if (hour === 30) {
        const before = await rig.history.points('WIDGET-9', '');
        expect(before).toHaveLength(10);
        rig.erp.stock.set('WIDGET-9', 1);
        await rig.tracker.observe(
          await rig.erp.getItem({ code: 'WIDGET-9' }),
          rig.clock.now + 1000,
        );
        expect(await rig.history.points('WIDGET-9', '')).toEqual(before);
      }
      if (hour === 2 * 24) expect(await coverNow()).toEqual([undefined, undefined]);
      if (hour === 3 * 24 + 3) expect(await coverNow()).toEqual([3, 3]);
    }
    // The hourly sweep (src/watches/index.ts) drops what is older than 30 days.
    expect(await rig.history.prune(rig.clock.now)).toBeGreaterThan(0);
    const points = await rig.history.points('WIDGET-9', '');
    // Two watches on the same item and place: one history, not two.
    expect(points.length).toBeLessThanOrEqual((30 * 24) / 3 + 1);
    expect(requireValue(points[0]).at).toBeGreaterThanOrEqual(rig.clock.now - 30 * DAY);
    const listed = (await rig.service.listChannel('C1')).watches[0];
    expect(listed?.cover?.windowDays).toBe(30);
    expect(listed?.cover?.days).toBeCloseTo(520 / 12, 0);
  }, 60_000);

  it('a flat item keeps only a heartbeat point every few hours, and no days of cover', async () => {
    const rig = makeRig((await fresh()).store);
    rig.erp.stock.set('WIDGET-9', 50);
    await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    for (let minutes = 30; minutes <= 5 * 24 * 60; minutes += 30) {
      rig.clock.now += 30 * 60_000;
      await rig.tracker.observe(await rig.erp.getItem({ code: 'WIDGET-9' }), rig.clock.now);
    }
    const points = await rig.history.points('WIDGET-9', '');
    expect(points.length).toBeLessThanOrEqual((5 * DAY) / HEARTBEAT_MS + 1);
    expect((await rig.service.listChannel('C1')).watches[0]?.cover).toBeUndefined();
  });

  it('notify: the alert and a later crossing mention them; a return does not', async () => {
    const rig = makeRig((await fresh()).store);
    rig.erp.stock.set('WIDGET-9', 30);
    await rig.service.create({
      ...base,
      code: 'WIDGET-9',
      direction: 'below',
      threshold: 20,
      notify: ['<@U0PURCH01>', '<!subteam^S0GROUP01>'],
    });
    expect(textOf(requireValue(rig.slack.posts('C1')[0]).message)).toContain(
      'Alerts will mention <@U0PURCH01> <!subteam^S0GROUP01>',
    );
    rig.erp.stock.set('WIDGET-9', 10);
    await rig.nextRound();
    const root = requireValue(rig.slack.roots('C1')[1]);
    expect(root.message.text).toMatch(/^<@U0PURCH01> <!subteam\^S0GROUP01> /);
    rig.erp.stock.set('WIDGET-9', 25);
    await rig.nextRound();
    rig.erp.stock.set('WIDGET-9', 5);
    await rig.nextRound();
    const replies = rig.slack.replies(root.ts).map((r) => r.message.text ?? '');
    expect(replies).toHaveLength(2);
    expect(replies[0]).not.toContain('<@U0PURCH01>');
    expect(replies[1]).toMatch(/^<@U0PURCH01> <!subteam\^S0GROUP01> /);
  });

  it('Snooze and Stop watching by another member: said in the thread with who, the root marked stopped', async () => {
    const rig = makeRig((await fresh()).store);
    rig.erp.stock.set('WIDGET-9', 30);
    await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    rig.erp.stock.set('WIDGET-9', 10);
    await rig.nextRound();
    const root = requireValue(rig.slack.roots('C1')[1]);
    const watch = requireValue((await rig.repo.listByChannel('C1'))[0]);
    const snoozed = await rig.service.snooze(watch.id, 1, 'C1', 'U0MEMBER2');
    expect(snoozed?.until.getTime()).toBe(rig.clock.now + DAY);
    const note = textOf(requireValue(rig.slack.replies(root.ts)[0]).message);
    expect(note).toContain('<@U0MEMBER2> snoozed this watch until <!date^');
    // Snoozed: a return and a crossing say nothing.
    rig.erp.stock.set('WIDGET-9', 40);
    await rig.nextRound();
    expect(rig.slack.replies(root.ts)).toHaveLength(1);

    expect(await rig.service.remove(watch.id, 'C2', 'U0MEMBER2')).toBeUndefined();
    const removed = await rig.service.remove(watch.id, 'C1', 'U0MEMBER2');
    expect(removed?.code).toBe('WIDGET-9');
    expect(textOf(requireValue(rig.slack.replies(root.ts)[1]).message)).toContain(
      '<@U0MEMBER2> stopped this watch',
    );
    const update = requireValue(rig.slack.updates().at(-1));
    expect(update.ts).toBe(root.ts);
    expect(textOf(update.message)).toContain('Stopped by <@U0MEMBER2>');
    expect(await rig.repo.get(watch.id)).toBeUndefined();
  });

  it('an unwatch that matches several removes nothing until confirmed; one is removed at once', async () => {
    const rig = makeRig((await fresh()).store);
    rig.erp.stock.set('WIDGET-9', 30);
    await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'above', threshold: 90 });
    const asked = await rig.service.unwatch('C1', 'widget-9', undefined, 'U1');
    expect('confirm' in asked && asked.confirm).toHaveLength(2);
    expect(await rig.repo.listByChannel('C1')).toHaveLength(2);
    const ids = (await rig.repo.listByChannel('C1')).map((w) => w.id);
    expect(await rig.service.removeMany(ids, 'C1', 'U1')).toHaveLength(2);
    await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    const once = await rig.service.unwatch('C1', 'WIDGET-9', undefined, 'U1');
    expect('removed' in once && once.removed.map((w) => w.code)).toEqual(['WIDGET-9']);
  });

  it('the digest: once at its minute, only when something is past, once across a restart and two replicas, never after off', async () => {
    const { store, reopen, another } = await fresh();
    const slack = new FakeSlack();
    const erp = new FakeErp();
    const clock = { now: Date.UTC(2026, 10, 27, 7, 0) };
    const first = makeRig(store, { slack, erp, clock });
    erp.stock.set('WIDGET-9', 30);
    erp.stock.set('BOLT-1', 3);
    await first.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    await first.service.create({ ...base, code: 'BOLT-1', direction: 'below', threshold: 20 });
    const setting = await first.digests.turnOn({
      channelId: 'C1',
      teamId: 'T1',
      userId: 'U1',
      minuteOfDay: 8 * 60,
      zone: 'UTC',
    });
    expect(setting.nextAt.toISOString()).toBe('2026-11-27T08:00:00.000Z');
    const digests = () =>
      slack.roots('C1').filter((p) => textOf(p.message).includes('Daily digest'));

    clock.now = Date.UTC(2026, 10, 27, 7, 59, 55);
    await first.checker.tick();
    expect(digests()).toHaveLength(0);
    // The restart at the hour: a new process on the same database finds the slot due.
    const second = makeRig(await reopen(), { slack, erp, clock });
    clock.now = Date.UTC(2026, 10, 27, 8, 0, 5);
    // On PostgreSQL, two replicas ticking at once (both think they hold the lease): one digest.
    const third =
      storeCase.name === 'postgres' ? makeRig(await another(), { slack, erp, clock }) : second;
    await Promise.all([second.checker.tick(), third.checker.tick()]);
    await second.checker.tick();
    expect(digests()).toHaveLength(1);
    const text = textOf(requireValue(digests()[0]).message);
    expect(text).toContain('1 watch past the threshold');
    expect(text).toContain('`BOLT-1` company-wide: *3* available, below 20');
    expect(text).not.toContain('WIDGET-9');

    // Next day, nothing past: no message at all.
    erp.stock.set('BOLT-1', 50);
    clock.now = Date.UTC(2026, 10, 28, 7, 0);
    await third.checker.tick();
    clock.now = Date.UTC(2026, 10, 28, 8, 0, 5);
    await third.checker.tick();
    expect(digests()).toHaveLength(1);
    expect((await third.digests.setting('C1'))?.nextAt.toISOString()).toBe(
      '2026-11-29T08:00:00.000Z',
    );

    // Off: past again at the next minute, and nothing comes.
    erp.stock.set('BOLT-1', 2);
    await third.nextRound(5);
    expect(await third.digests.turnOff('C1', 'U1')).toBe(true);
    clock.now = Date.UTC(2026, 10, 29, 8, 0, 5);
    await third.checker.tick();
    expect(digests()).toHaveLength(1);
    expect(await third.digests.turnOff('C1', 'U1')).toBe(false);
  });
});
