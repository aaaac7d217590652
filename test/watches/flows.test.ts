import { afterEach, describe, expect, it } from 'vitest';
import { watchRefusal } from '../../src/views/watchNotices.js';
import { WatchChecker } from '../../src/watches/checker.js';
import { openWatchStore, type WatchStore } from '../../src/watches/database.js';
import { CLAIM_STALE_MS } from '../../src/watches/notifier.js';
import { WatchRepository } from '../../src/watches/repository.js';
import { refusalOfFailure, WatchNotSavedError, WatchService } from '../../src/watches/service.js';
import { textOf } from '../helpers/blocks.js';
import { silentLogger } from '../lookup/fakes.js';
import { FakeErp, FakeSlack, freeBudget, LIMITS, makeRig, type Rig } from './rig.js';
import { reopenable, requireValue, STORE_CASES } from './stores.js';

const base = { teamId: 'T1', channelId: 'C1', userId: 'U0ALICE', branch: undefined } as const;

describe.each(STORE_CASES)('watches on $name', (storeCase) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const fresh = () => reopenable(storeCase, cleanups);

  async function rigWith(stock: number): Promise<Rig> {
    const rig = makeRig((await fresh()).store);
    rig.erp.stock.set('WIDGET-9', stock);
    return rig;
  }

  it('one thread per watch: the first crossing posts the alert, later crossings and returns reply in its thread, the root says where it stands', async () => {
    const rig = await rigWith(30);
    const made = await rig.service.create({
      ...base,
      code: 'WIDGET-9',
      direction: 'below',
      threshold: 20,
    });
    expect(made).toMatchObject({ ok: true, past: false, intervalSeconds: 60 });
    expect(textOf(requireValue(rig.slack.posts('C1')[0]).message)).toContain('Available now: *30*');

    rig.erp.stock.set('WIDGET-9', 15);
    await rig.nextRound();
    const roots = rig.slack.roots('C1').slice(1);
    expect(roots).toHaveLength(1);
    const root = requireValue(roots[0]);
    const alert = textOf(root.message);
    expect(alert).toContain('WIDGET-9 company-wide is below 20: 15 available');
    expect(alert).toContain('(from 30)');
    expect(alert).not.toMatch(/cost|Before/i);

    rig.erp.stock.set('WIDGET-9', 12);
    await rig.nextRound();
    await rig.nextRound(); // unchanged: nothing more
    expect(rig.slack.posts('C1')).toHaveLength(2);
    expect(rig.slack.updates()).toHaveLength(1);
    expect(requireValue(rig.slack.updates()[0]).ts).toBe(root.ts);
    expect(textOf(requireValue(rig.slack.updates()[0]).message)).toContain('Available:* 12');

    // Back by less than the margin (a tenth of 20 = 2): still past, shown in place.
    rig.erp.stock.set('WIDGET-9', 21);
    await rig.nextRound();
    expect(rig.slack.posts('C1')).toHaveLength(2);
    // Back by the margin: a reply in the thread, and the root's first line says so.
    rig.erp.stock.set('WIDGET-9', 22);
    await rig.nextRound();
    expect(rig.slack.replies(root.ts).map((r) => textOf(r.message))).toEqual([
      expect.stringContaining('Back to 20 or more: 22 available'),
    ]);
    expect(textOf(requireValue(rig.slack.updates().at(-1)).message)).toContain(
      'WIDGET-9 company-wide is back to 20 or more: 22 available',
    );
    expect(requireValue(rig.slack.updates().at(-1)).ts).toBe(root.ts);
    const watch = requireValue((await rig.repo.listByChannel('C1'))[0]);
    expect(watch).toMatchObject({ state: 'armed', alert_ts: root.ts, alert_owed: 0 });

    // A second crossing: a reply in the same thread, never a new top-level post.
    rig.erp.stock.set('WIDGET-9', 3);
    await rig.nextRound();
    await rig.nextRound();
    expect(rig.slack.roots('C1')).toHaveLength(2);
    expect(rig.slack.replies(root.ts).map((r) => textOf(r.message))).toEqual([
      expect.stringContaining('Back to 20 or more'),
      expect.stringContaining('Below 20 again: 3 available (was 22)'),
    ]);
    expect(textOf(requireValue(rig.slack.updates().at(-1)).message)).toContain(
      'WIDGET-9 company-wide is below 20: 3 available',
    );
  });

  it('makes no watch and says why when it cannot post in the channel', async () => {
    const rig = await rigWith(30);
    rig.slack.refuse.set('C1', { error: 'not_in_channel', once: false });
    const made = await rig.service.create({
      ...base,
      code: 'WIDGET-9',
      direction: 'below',
      threshold: 20,
    });
    expect(made).toEqual({ ok: false, cannotPost: 'not_in_channel' });
    expect(await rig.repo.listByChannel('C1')).toEqual([]);
  });

  it('a watch the database does not save after its confirmation: the confirmation is deleted', async () => {
    const opened = await fresh();
    const rig = makeRig(opened.store);
    rig.erp.stock.set('WIDGET-9', 30);
    // The database goes away between the post and the insert.
    const post = rig.slack.post.bind(rig.slack);
    rig.slack.post = async (channel, message) => {
      const posted = await post(channel, message);
      await opened.store.close();
      return posted;
    };
    const create = () =>
      rig.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    const failure = await create().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WatchNotSavedError);
    expect(refusalOfFailure(failure)).toEqual({ reason: 'not_saved', confirmationLeft: false });
    const [confirmation] = rig.slack.posts('C1');
    expect(rig.slack.sent.filter((s) => s.kind === 'delete')).toEqual([
      expect.objectContaining({ channel: 'C1', ts: confirmation?.ts }),
    ]);
    expect(textOf(watchRefusal(refusalOfFailure(failure)))).toContain(
      'the confirmation posted in the channel was removed',
    );

    // Back, and Slack refusing the delete: the user is told the confirmation stayed.
    const store = await opened.reopen();
    expect(await new WatchRepository(store.db).listByChannel('C1')).toEqual([]);
    const again = makeRig(store, { slack: rig.slack, erp: rig.erp });
    again.slack.post = async (channel, message) => {
      const posted = await post(channel, message);
      again.slack.refuse.set('C1', { error: 'message_not_found', once: true });
      await store.close();
      return posted;
    };
    const left = await again.service
      .create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 })
      .catch((error: unknown) => error);
    expect(refusalOfFailure(left)).toEqual({ reason: 'not_saved', confirmationLeft: true });
    expect(refusalOfFailure(new Error('connection refused'))).toEqual({
      reason: 'store_unavailable',
    });
    await opened.reopen();
  });

  it('refuses an unknown item or branch, a full channel, and an interval past the maximum', async () => {
    const rig = await rigWith(30);
    rig.erp.gone.add('NOPE');
    expect(
      await rig.service.create({ ...base, code: 'NOPE', direction: 'below', threshold: 1 }),
    ).toMatchObject({
      ok: false,
      refusal: { reason: 'item_not_found' },
    });
    expect(
      await rig.service.create({
        ...base,
        code: 'WIDGET-9',
        branch: 'darwin',
        direction: 'below',
        threshold: 1,
      }),
    ).toMatchObject({
      ok: false,
      refusal: { reason: 'branch_not_found', branches: ['Perth', 'Sydney'] },
    });
    // 6 checks a minute (0.1 × 60): with a 1-minute maximum, the 7th item is refused.
    const service = new WatchService({
      repo: async () => rig.repo,
      fetchItem: (code) => rig.erp.getItem({ code }),
      poster: rig.slack,
      limits: { ...LIMITS, maxIntervalMinutes: 1, maxPerChannel: 7 },
    });
    for (let i = 0; i < 6; i += 1) {
      rig.erp.stock.set(`ITEM-${i}`, 50);
      expect(
        await service.create({ ...base, code: `ITEM-${i}`, direction: 'below', threshold: 1 }),
      ).toMatchObject({ ok: true });
    }
    expect(
      await service.create({ ...base, code: 'ITEM-6', direction: 'below', threshold: 1 }),
    ).toMatchObject({
      ok: false,
      refusal: { reason: 'interval_too_long', intervalMinutes: 2, maxMinutes: 1 },
    });
    // Another watch on an item already checked does not lengthen the interval.
    expect(
      await service.create({ ...base, code: 'ITEM-0', direction: 'above', threshold: 100 }),
    ).toMatchObject({ ok: true });
    expect(
      await service.create({ ...base, code: 'ITEM-1', direction: 'above', threshold: 100 }),
    ).toMatchObject({
      ok: false,
      refusal: { reason: 'channel_full', max: 7 },
    });
  });

  it('refuses a person at their quota and another person’s watch on the same key, also in a race', async () => {
    const rig = await rigWith(30);
    const service = new WatchService({
      repo: async () => rig.repo,
      fetchItem: (code) => rig.erp.getItem({ code }),
      poster: rig.slack,
      limits: { ...LIMITS, maxPerUser: 1 },
    });
    const mine = { ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 } as const;
    expect(await service.create(mine)).toMatchObject({ ok: true });
    const quota = await service.create({ ...mine, direction: 'above', threshold: 90 });
    expect(quota).toEqual({ ok: false, refusal: { reason: 'user_full', max: 1 } });
    const theirs = { ...mine, userId: 'U0BOB', threshold: 5 };
    const held = await service.create(theirs);
    expect(held).toEqual({
      ok: false,
      refusal: { reason: 'watched_by_other', creatorId: 'U0ALICE' },
    });
    if (held.ok || !('refusal' in held)) throw new Error('expected a refusal');
    expect(textOf(watchRefusal(held.refusal))).toContain(
      '<@U0ALICE> already watches this item here',
    );

    // The holder's watch lands between the look and the insert: the same refusal, and the
    // confirmation already posted is taken back.
    const racing: WatchRepository = Object.create(rig.repo);
    let looked = false;
    racing.activeOn = async (...where) => {
      if (looked) return rig.repo.activeOn(...where);
      looked = true;
      return undefined;
    };
    const raced = await new WatchService({
      repo: async () => racing,
      fetchItem: (code) => rig.erp.getItem({ code }),
      poster: rig.slack,
      limits: LIMITS,
    }).create(theirs);
    expect(raced).toEqual({
      ok: false,
      refusal: { reason: 'watched_by_other', creatorId: 'U0ALICE' },
    });
    expect(rig.slack.sent.at(-1)).toMatchObject({ kind: 'delete', channel: 'C1' });
  });

  it('a watch made already past says so and does not alert until it crosses again', async () => {
    const rig = await rigWith(5);
    expect(
      await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 }),
    ).toMatchObject({ ok: true, past: true });
    expect(textOf(requireValue(rig.slack.posts()[0]).message)).toContain('already below 20');
    rig.erp.stock.set('WIDGET-9', 4);
    await rig.nextRound();
    expect(rig.slack.sent).toHaveLength(1);
    rig.erp.stock.set('WIDGET-9', 40);
    await rig.nextRound();
    rig.erp.stock.set('WIDGET-9', 4);
    await rig.nextRound();
    expect(rig.slack.posts()).toHaveLength(2);
  });

  it('checks at branch level, and each item once a round however many watches it has', async () => {
    const rig = await rigWith(30);
    await rig.service.create({
      ...base,
      code: 'WIDGET-9',
      branch: 'per',
      direction: 'below',
      threshold: 20,
    });
    await rig.service.create({
      ...base,
      channelId: 'C2',
      code: 'WIDGET-9',
      direction: 'above',
      threshold: 1000,
    });
    rig.erp.calls = 0;
    rig.erp.stock.set('WIDGET-9', 10);
    await rig.nextRound();
    expect(rig.erp.calls).toBe(1);
    expect(rig.slack.posts('C1')).toHaveLength(2);
    expect(rig.slack.posts('C2')).toHaveLength(1);
    // Not due again before the interval.
    await rig.nextRound(0.5);
    expect(rig.erp.calls).toBe(1);
  });

  it('snoozed: silent until the snooze ends, then alerts if still past', async () => {
    const rig = await rigWith(30);
    const made = await rig.service.create({
      ...base,
      code: 'WIDGET-9',
      direction: 'below',
      threshold: 20,
    });
    if (!made.ok) throw new Error('not made');
    await rig.service.snooze(made.watch.id, 1, 'C1');
    rig.erp.stock.set('WIDGET-9', 10);
    await rig.nextRound();
    expect(rig.slack.posts()).toHaveLength(1);
    await rig.nextRound(24 * 60);
    expect(rig.slack.posts()).toHaveLength(2);
  });

  it('a permanent Slack refusal switches the watch off and DMs its creator once', async () => {
    const rig = await rigWith(30);
    await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    rig.slack.refuse.set('C1', { error: 'is_archived', once: false });
    rig.erp.stock.set('WIDGET-9', 10);
    await rig.nextRound();
    await rig.nextRound();
    const dms = rig.slack.posts('U0ALICE');
    expect(dms).toHaveLength(1);
    expect(textOf(requireValue(dms[0]).message)).toContain('the channel was archived');
    expect(requireValue((await rig.repo.listByChannel('C1'))[0])).toMatchObject({
      state: 'off',
      off_reason: 'is_archived',
    });
  });

  it('an item gone from the ERP switches its watches off with one message per channel', async () => {
    const rig = await rigWith(30);
    await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'above', threshold: 200 });
    await rig.service.create({
      ...base,
      channelId: 'C2',
      code: 'WIDGET-9',
      direction: 'below',
      threshold: 5,
    });
    rig.slack.sent.length = 0;
    rig.erp.gone.add('WIDGET-9');
    await rig.nextRound();
    await rig.nextRound();
    expect(
      rig.slack.posts().map((p) => [p.channel, textOf(p.message).includes('2 watches')]),
    ).toEqual(
      expect.arrayContaining([
        ['C1', true],
        ['C2', false],
      ]),
    );
    expect(rig.slack.posts()).toHaveLength(2);
  });

  it('an alert whose post failed is retried after a restart, and posted once', async () => {
    const { store, reopen } = await fresh();
    const slack = new FakeSlack();
    const erp = new FakeErp();
    const clock = { now: Date.UTC(2026, 2, 2) };
    erp.stock.set('WIDGET-9', 30);
    const first = makeRig(store, { slack, erp, clock });
    await first.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    slack.refuse.set('C1', { error: 'ratelimited', once: true });
    erp.stock.set('WIDGET-9', 10);
    await first.nextRound();
    expect(slack.posts()).toHaveLength(1);
    const second = makeRig(await reopen(), { slack, erp, clock });
    await second.checker.tick();
    await second.nextRound();
    expect(slack.posts()).toHaveLength(2);
    const root = requireValue(slack.posts()[1]);
    expect(textOf(root.message)).toContain('(from 30)');

    // After another restart, a return and a crossing are replies in that same thread, once each.
    erp.stock.set('WIDGET-9', 25);
    const third = makeRig(await reopen(), { slack, erp, clock });
    await third.nextRound();
    await third.nextRound();
    erp.stock.set('WIDGET-9', 5);
    const fourth = makeRig(await reopen(), { slack, erp, clock });
    await fourth.nextRound();
    await fourth.nextRound();
    expect(slack.roots('C1')).toHaveLength(2);
    expect(slack.replies(root.ts).map((r) => textOf(r.message))).toEqual([
      expect.stringContaining('Back to 20 or more: 25 available'),
      expect.stringContaining('Below 20 again: 5 available'),
    ]);
  });

  it('a post claimed by a replica that died is posted after the claim goes stale, once', async () => {
    const rig = await rigWith(30);
    await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    rig.erp.stock.set('WIDGET-9', 10);
    rig.clock.now += 120_000;
    await rig.tracker.observe(await rig.erp.getItem({ code: 'WIDGET-9' }), rig.clock.now);
    const owed = requireValue((await rig.repo.listByChannel('C1'))[0]);
    expect(await rig.repo.claimAlert(owed, rig.clock.now, 0)).toBe(true); // then "dies"
    await rig.notifier.reconcile();
    expect(rig.slack.posts()).toHaveLength(1);
    rig.clock.now += CLAIM_STALE_MS + 1;
    await rig.notifier.reconcile();
    await rig.notifier.reconcile();
    expect(rig.slack.posts()).toHaveLength(2);
  });

  it('two checkers racing on one crossing announce it once', async () => {
    const { store } = await fresh();
    const other =
      storeCase.name === 'postgres'
        ? await openWatchStore((await storeOptions(store)) ?? never())
        : store;
    if (other !== store) cleanups.push(() => other.close());
    const slack = new FakeSlack();
    const erp = new FakeErp();
    const clock = { now: Date.UTC(2026, 2, 2) };
    erp.stock.set('WIDGET-9', 30);
    const a = makeRig(store, { slack, erp, clock });
    const b = makeRig(other, { slack, erp, clock });
    await a.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    erp.stock.set('WIDGET-9', 10);
    clock.now += 120_000;
    await Promise.all([a.checker.tick(), b.checker.tick(), a.checker.tick(), b.checker.tick()]);
    await Promise.all([a.notifier.reconcile(), b.notifier.reconcile()]);
    expect(slack.posts()).toHaveLength(2);
  });

  it('a replica without the lease does not check or post, but learns the watched codes', async () => {
    const { store } = await fresh();
    const slack = new FakeSlack();
    const erp = new FakeErp();
    const clock = { now: Date.UTC(2026, 2, 2) };
    erp.stock.set('WIDGET-9', 30);
    const holder = makeRig(store, { slack, erp, clock });
    await holder.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    const learned: string[][] = [];
    const idle = new WatchChecker({
      repo: async () => holder.repo,
      tracker: holder.tracker,
      notifier: holder.notifier,
      erp,
      budget: freeBudget,
      lease: { hold: async () => false, release: async () => {} },
      limits: LIMITS,
      logger: silentLogger,
      storeOpen: () => true,
      onWatched: (codes) => learned.push([...codes]),
      now: () => clock.now,
    });
    erp.stock.set('WIDGET-9', 10);
    erp.calls = 0;
    clock.now += 120_000;
    expect(await idle.tick()).toMatchObject({ held: false, checked: 0 });
    expect(erp.calls).toBe(0);
    expect(slack.posts()).toHaveLength(1);
    expect(learned).toEqual([['WIDGET-9']]);
  });

  it("a user's lookup counts as a check: it records the crossing and defers the item's check", async () => {
    const rig = await rigWith(30);
    await rig.service.create({ ...base, code: 'WIDGET-9', direction: 'below', threshold: 20 });
    rig.erp.stock.set('WIDGET-9', 10);
    rig.clock.now += 50_000;
    await rig.tracker.observe(rig.erp.item('WIDGET-9'), rig.clock.now);
    rig.erp.calls = 0;
    rig.clock.now += 30_000;
    const report = await rig.checker.tick();
    expect(report).toMatchObject({ due: 0, checked: 0 });
    expect(rig.erp.calls).toBe(0);
    expect(rig.slack.posts()).toHaveLength(2);
  });
});

function never(): never {
  throw new Error('unreachable');
}

/** The options a PostgreSQL store was opened with, from its pool (a second replica's view). */
async function storeOptions(store: WatchStore) {
  const pool = store.pool as unknown as { options: { connectionString: string } } | undefined;
  return pool ? ({ kind: 'postgres', url: pool.options.connectionString } as const) : undefined;
}
