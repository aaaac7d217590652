/**
 * Watch messages say what the data says, on every store with a clock the test moves: a snoozed
 * alert is redrawn to where the quantity stands (never "below 150" over 200 available) and
 * calls nobody; the first line and the fallback name the branch; over-allocation is shown as
 * such, never as 0.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../src/views/message.js';
import { textOf } from '../helpers/blocks.js';
import { makeRig, type Rig } from './rig.js';
import { reopenable, requireValue, STORE_CASES } from './stores.js';

const base = { teamId: 'T1', channelId: 'C1', userId: 'U1', branch: undefined } as const;
const DAY = 24 * 60 * 60_000;

/** The header of a message: the alert's first line. */
function headerOf(message: SlackMessage): string {
  const header = message.blocks.find((b) => b.type === 'header');
  return header?.type === 'header' ? header.text.text : '';
}

/** What the alert (the thread's root) shows now: its last update, else its post. */
function rootNow(rig: Rig, ts: string): SlackMessage {
  const updates = rig.slack.updates().filter((u) => u.ts === ts);
  const last = updates.at(-1) ?? rig.slack.posts('C1').find((p) => p.ts === ts);
  return requireValue(last).message;
}

describe.each(STORE_CASES)('watch messages say what is so on $name', (storeCase) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const fresh = async () => makeRig((await reopenable(storeCase, cleanups)).store);

  it('a snoozed past alert is redrawn as back when it is back, calls nobody, and the return is told when the snooze ends', async () => {
    const rig = await fresh();
    rig.erp.stock.set('WIDGET-9', 300);
    await rig.service.create({
      ...base,
      code: 'WIDGET-9',
      direction: 'below',
      threshold: 150,
      notify: ['<@U0PURCH01>'],
    });
    rig.erp.stock.set('WIDGET-9', 100);
    await rig.nextRound();
    const root = requireValue(rig.slack.roots('C1')[1]);
    expect(headerOf(root.message)).toBe('⚠️ WIDGET-9 company-wide is below 150: 100 available');
    expect(root.message.text).toMatch(/^<@U0PURCH01> ⚠️ WIDGET-9 company-wide is below 150/);

    const watch = requireValue((await rig.repo.listByChannel('C1'))[0]);
    await rig.service.snooze(watch.id, 1, 'C1', 'U0MEMBER2');
    const pressed = rootNow(rig, root.ts);
    expect(textOf(pressed)).toContain(':zzz: snoozed until <!date^');
    expect(pressed.text).not.toMatch(/^<@U0PURCH01>/);

    rig.erp.stock.set('WIDGET-9', 200);
    await rig.nextRound();
    const back = rootNow(rig, root.ts);
    expect(headerOf(back)).toBe('✅ WIDGET-9 company-wide is back to 150 or more: 200 available');
    expect(back.text).not.toContain('below 150');
    expect(back.text).not.toMatch(/^<@/);
    expect(back.text).toContain('(snoozed)');
    // Only the press note in the thread: a snooze tells no turn.
    expect(rig.slack.replies(root.ts)).toHaveLength(1);

    rig.erp.stock.set('WIDGET-9', 90);
    await rig.nextRound();
    expect(headerOf(rootNow(rig, root.ts))).toBe(
      '⚠️ WIDGET-9 company-wide is below 150: 90 available',
    );
    expect(rig.slack.replies(root.ts)).toHaveLength(1);

    // The snooze over, back above by the margin: the return is told in the thread.
    rig.erp.stock.set('WIDGET-9', 200);
    rig.clock.now += DAY;
    await rig.nextRound();
    const replies = rig.slack.replies(root.ts);
    expect(replies).toHaveLength(2);
    expect(textOf(requireValue(replies[1]).message)).toContain('Back to 150 or more: 200');
    expect(headerOf(rootNow(rig, root.ts))).toMatch(/^✅ WIDGET-9 company-wide is back/);
  });

  it('a snoozed armed alert that falls again is redrawn as past, and the crossing is told (with its mention) only after the snooze', async () => {
    const rig = await fresh();
    rig.erp.stock.set('WIDGET-9', 300);
    await rig.service.create({
      ...base,
      branch: 'perth',
      code: 'WIDGET-9',
      direction: 'below',
      threshold: 150,
      notify: ['<@U0PURCH01>'],
    });
    rig.erp.stock.set('WIDGET-9', 100);
    await rig.nextRound();
    const root = requireValue(rig.slack.roots('C1')[1]);
    rig.erp.stock.set('WIDGET-9', 200);
    await rig.nextRound();
    expect(rig.slack.replies(root.ts)).toHaveLength(1);
    const watch = requireValue((await rig.repo.listByChannel('C1'))[0]);
    await rig.service.snooze(watch.id, 1, 'C1', 'U0MEMBER2');
    expect(rig.slack.replies(root.ts)).toHaveLength(2);

    rig.erp.stock.set('WIDGET-9', 120);
    await rig.nextRound();
    expect(headerOf(rootNow(rig, root.ts))).toBe('⚠️ WIDGET-9 at Perth is below 150: 120 available');
    expect(rig.slack.replies(root.ts)).toHaveLength(2);
    // Redrawn once for a reading, not at every round.
    const updates = rig.slack.updates().length;
    await rig.nextRound();
    expect(rig.slack.updates()).toHaveLength(updates);

    rig.clock.now += DAY;
    await rig.nextRound();
    const replies = rig.slack.replies(root.ts);
    expect(replies).toHaveLength(3);
    expect(requireValue(replies[2]).message.text).toMatch(/^<@U0PURCH01> ⚠️ Below 150 again/);
  });

  it('over-allocation is shown as such in the confirmation and the alert, never as 0', async () => {
    const rig = await fresh();
    rig.erp.stock.set('WIDGET-9', 40);
    await rig.service.create({
      ...base,
      branch: 'perth',
      code: 'WIDGET-9',
      direction: 'below',
      threshold: 5,
    });
    rig.erp.stock.set('WIDGET-9', -13);
    await rig.nextRound();
    const root = requireValue(rig.slack.roots('C1')[1]);
    expect(headerOf(root.message)).toBe(
      '⚠️ WIDGET-9 at Perth is below 5: −13 available (over-allocated by 13)',
    );
    expect(textOf(root.message)).toContain('*Available:* −13 (over-allocated by 13)');
    expect(textOf(root.message)).not.toMatch(/Available:\* 0\b/);

    const again = await fresh();
    again.erp.stock.set('WIDGET-9', -13);
    await again.service.create({
      ...base,
      branch: 'perth',
      code: 'WIDGET-9',
      direction: 'below',
      threshold: 5,
    });
    const confirmation = textOf(requireValue(again.slack.roots('C1')[0]).message);
    expect(confirmation).toContain('Available now: *−13 (over-allocated by 13)*');
    expect(confirmation).not.toContain('Available now: *0*');
  });

  it('a second watch of the same person on the same item and place asks first; Replace (replace: true) replaces it', async () => {
    const rig = await fresh();
    rig.erp.stock.set('WIDGET-9', 40);
    const first = { ...base, branch: 'perth', code: 'WIDGET-9', direction: 'below' } as const;
    expect(await rig.service.create({ ...first, threshold: 5 })).toMatchObject({ ok: true });
    const asked = await rig.service.create({ ...first, threshold: 10, notify: ['<@U0PURCH01>'] });
    expect(asked).toMatchObject({
      ok: false,
      replace: {
        existing: { code: 'WIDGET-9', branchName: 'Perth', threshold: 5 },
        proposed: {
          channelId: 'C1',
          code: 'WIDGET-9',
          branchName: 'Perth',
          direction: 'below',
          threshold: 10,
          notify: ['<@U0PURCH01>'],
        },
      },
    });
    // Nothing changed, nothing posted: the first watch stands.
    expect(rig.slack.posts('C1')).toHaveLength(1);
    expect((await rig.repo.listByChannel('C1')).map((w) => w.threshold)).toEqual([5]);
    // Another direction is another watch: no question.
    expect(await rig.service.create({ ...first, direction: 'above', threshold: 90 })).toMatchObject(
      { ok: true },
    );
    const replaced = await rig.service.create({ ...first, threshold: 10, replace: true });
    expect(replaced).toMatchObject({ ok: true, watch: { threshold: 10 } });
    expect((await rig.repo.listByChannel('C1')).map((w) => [w.direction, w.threshold])).toEqual(
      expect.arrayContaining([
        ['below', 10],
        ['above', 90],
      ]),
    );
  });

  it('a switched-off watch holds no key: anyone may set a new one there, without a question', async () => {
    const rig = await fresh();
    rig.erp.stock.set('WIDGET-9', 40);
    const theirs = { ...base, userId: 'U0ALICE', code: 'WIDGET-9', direction: 'below' } as const;
    await rig.service.create({ ...theirs, threshold: 5 });
    const off = requireValue((await rig.repo.listByChannel('C1'))[0]);
    expect(await rig.repo.switchOff(off, 'access_revoked', rig.clock.now)).toBe(true);
    const mine = await rig.service.create({ ...theirs, userId: 'U0BOB', threshold: 10 });
    expect(mine).toMatchObject({ ok: true, watch: { creatorId: 'U0BOB', threshold: 10 } });
    const rows = await rig.repo.listByChannel('C1');
    expect(rows).toHaveLength(1);
    expect(requireValue(rows[0])).toMatchObject({ creator_id: 'U0BOB', state: 'armed' });
    // Its own creator's off watch likewise: replaced, no question.
    const again = requireValue(rows[0]);
    await rig.repo.switchOff(again, 'channel_not_found', rig.clock.now);
    expect(await rig.service.create({ ...theirs, userId: 'U0BOB', threshold: 20 })).toMatchObject({
      ok: true,
      watch: { threshold: 20 },
    });
  });
});
