import { describe, expect, it } from 'vitest';
import { ACTION, decodeState } from '../../src/views/actions.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { noticeMessage } from '../../src/views/feedback.js';
import { watchAlert, watchDigest, watchTurnReply } from '../../src/views/watchAlert.js';
import {
  decodeWatchButton,
  decodeWatchOpen,
  decodeWatchReplace,
  WATCH_ACTION,
  watchOpenButton,
} from '../../src/views/watchButtons.js';
import { homeWatchBlocks, watchList } from '../../src/views/watchList.js';
import { watchModal } from '../../src/views/watchModal.js';
import {
  cannotPostWatchAdvice,
  digestAnswer,
  unwatchSeveral,
  watchConfirmation,
  watchesSwitchedOff,
  watchRefusal,
  watchReplaceAsk,
  watchSnoozed,
  watchSwitchedOff,
} from '../../src/views/watchNotices.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';
import { makeWatchSummary } from '../helpers/builders.js';

const watch = makeWatchSummary({ lastAvailable: 30 });

const alertModel = {
  watchId: watch.id,
  code: 'WIDGET-9',
  itemId: 1001,
  description: 'Blue <widget> & co',
  branchName: 'Perth',
  direction: 'below' as const,
  threshold: 20,
  now: 12,
  onOrder: 40,
  checkedAt: new Date('2026-03-02T10:45:00Z'),
  standing: 'past' as const,
  crossing: { before: 30, at: new Date('2026-03-02T10:40:00Z') },
  cover: { days: 4.6, windowDays: 12 },
  mentions: ['<@U0PURCH01>', '<!subteam^S0GROUP01>'],
  asOf: new Date('2026-03-02T10:47:00Z'),
};

const dateToken = /<!date\^\d+\^[^|>]+\|[^>]+>/;

describe('watch views', () => {
  it('the alert leads with where it stands, says the crossing in words, and carries Snooze and Stop watching', () => {
    const message = watchAlert(alertModel);
    const text = textOf(message);
    for (const part of [
      'WIDGET-9 at Perth is below 20: 12 available',
      'Available:* 12',
      'Fell below 20',
      '(from 30)',
      'On order:* 40',
      'at Perth',
      '&lt;widget&gt;',
      "About 5 days of cover at the last 12 days' rate",
      'For <@U0PURCH01> <!subteam^S0GROUP01>',
    ]) {
      expect(text).toContain(part);
    }
    expect(text).not.toMatch(/Before/);
    expect(text).not.toMatch(/cost/i);
    expect(text).toMatch(dateToken);
    expect(message.text?.startsWith('<@U0PURCH01> <!subteam^S0GROUP01> ')).toBe(true);
    const buttons = buttonsOf(message);
    const view = buttons.find((b) => b.action_id === ACTION.itemView);
    expect(decodeState(view?.value)).toMatchObject({
      ok: true,
      state: { t: 'i', r: { c: 'WIDGET-9' } },
    });
    const stop = buttons.find((b) => b.action_id.startsWith(`${WATCH_ACTION.stop}:`));
    expect(stop?.confirm?.confirm?.text).toBe('Stop watching');
    expect(decodeWatchButton(stop?.value)).toEqual({ v: 1, t: 'wx', w: watch.id });
    const snoozes = buttons.filter((b) => b.action_id.startsWith(`${WATCH_ACTION.snooze}:`));
    expect(snoozes.map((b) => b.accessibility_label)).toEqual([
      'Snooze the watch on WIDGET-9 at Perth for a day',
      'Snooze the watch on WIDGET-9 at Perth for a week',
    ]);
    expect(checkMessageLimits(message)).toEqual([]);
  });

  it('a returned alert says where it stands without a bare "Before"; a stopped one says who and has no watch buttons', () => {
    const back = textOf(
      watchAlert({
        ...alertModel,
        direction: 'above',
        threshold: 0,
        standing: 'back',
        now: 0,
        cover: undefined,
      }),
    );
    expect(back).toContain('WIDGET-9 at Perth is out of stock again: 0 available');
    expect(back).not.toMatch(/Before|cover/);
    const backIn = textOf(
      watchAlert({
        ...alertModel,
        direction: 'above',
        threshold: 0,
        now: 30,
        crossing: { before: 4, at: new Date() },
      }),
    );
    expect(backIn).toContain('Came back in stock');
    expect(backIn).toContain('(from 4)');
    const stopped = watchAlert({ ...alertModel, standing: 'stopped', stoppedBy: 'U0STOPPER' });
    expect(textOf(stopped)).toContain('Stopped by <@U0STOPPER>');
    expect(buttonsOf(stopped).map((b) => b.action_id)).toEqual([ACTION.itemView]);
    expect(stopped.text).not.toContain('<@U0PURCH01>');
  });

  it('turns in the thread: a crossing again mentions, a return does not', () => {
    const turn = {
      code: 'WIDGET-9',
      direction: 'below' as const,
      threshold: 20,
      now: 12,
      standing: 'past' as const,
      before: 25,
      checkedAt: new Date('2026-03-02T10:45:00Z'),
      cover: undefined,
      mentions: ['<@U0PURCH01>'],
    };
    expect(textOf(watchTurnReply(turn))).toContain(
      '<@U0PURCH01> ⚠️ Below 20 again: 12 available (was 25)',
    );
    const back = textOf(watchTurnReply({ ...turn, standing: 'back', now: 34, before: undefined }));
    expect(back).toContain('Back to 20 or more: 34 available');
    expect(back).not.toContain('<@U0PURCH01>');
  });

  it('the digest lists each watch past with its quantity and cover, within Block Kit limits', () => {
    const many = Array.from({ length: 50 }, (_, i) => ({
      ...watch,
      id: `1b4e28ba-2fa1-41d2-883f-0016d3cc${String(i).padStart(4, '0')}`,
      code: `ITEM-${i}`,
      state: 'past' as const,
      lastAvailable: i,
      cover: i % 2 === 0 ? { days: 3, windowDays: 7 } : undefined,
    }));
    const message = watchDigest({ watches: many, checkedAt: new Date() });
    expect(textOf(message)).toContain('50 watches past the threshold');
    expect(textOf(message)).toContain(
      "`ITEM-2` at Perth: *2* available, below 20 · about 3 days of cover at the last 7 days' rate",
    );
    expect(checkMessageLimits(message)).toEqual([]);
  });

  it('snoozed until a date token, never a frozen UTC string in the blocks', () => {
    const message = watchSnoozed(
      watch,
      new Date('2026-11-28T06:28:00Z'),
      new Date('2026-11-27T06:28:00Z'),
    );
    const blocksText = JSON.stringify(message.blocks);
    expect(blocksText).toMatch(dateToken);
    expect(blocksText).not.toContain('28 Nov 2026 at 06:28 UTC"');
  });

  it('a watch list says when each quantity was checked, as a date token; Home likewise', () => {
    const checkedAt = new Date('2026-11-27T10:00:00Z');
    const checked = { ...watch, lastAvailable: 12, checkedAt };
    const unix = Math.floor(checkedAt.getTime() / 1000);
    const list = watchList({
      watches: [checked],
      intervalSeconds: 60,
      scope: 'channel',
      now: checkedAt,
    });
    expect(JSON.stringify(list.blocks)).toContain(`12 available (<!date^${unix}^{ago}|`);
    const home = JSON.stringify(homeWatchBlocks([checked], checkedAt));
    expect(home).toContain(`12 available (<!date^${unix}^{ago}|`);
    // Never checked yet: no time at all.
    expect(JSON.stringify(homeWatchBlocks([watch], checkedAt))).not.toContain('<!date^');
  });

  it('an unwatch of several asks first: Remove all and each Remove carry a confirm dialog and a label', () => {
    const several = [
      watch,
      { ...watch, id: '2b4e28ba-2fa1-41d2-883f-0016d3cca427', branchName: 'Sydney' },
    ];
    const message = unwatchSeveral(several);
    const buttons = buttonsOf(message);
    expect(buttons.every((b) => b.confirm !== undefined)).toBe(true);
    expect(buttons.map((b) => b.accessibility_label)).toEqual([
      'Remove all 2 watches on WIDGET-9',
      'Remove the watch on WIDGET-9 at Perth',
      'Remove the watch on WIDGET-9 at Sydney',
    ]);
    expect(decodeWatchButton(buttons[0]?.value)).toEqual({
      v: 1,
      t: 'wa',
      ws: several.map((w) => w.id),
    });
  });

  it('the confirmation names who, what, the threshold, the interval and the quantity now', () => {
    const text = textOf(
      watchConfirmation({
        watch,
        description: 'Blue widget',
        available: 30,
        past: false,
        intervalSeconds: 3000,
      }),
    );
    expect(text).toContain('<@U0123ABC>');
    expect(text).toContain('below 20');
    expect(text).toContain('about every 50 min');
    expect(text).toContain('Available now: *30*');
    expect(
      textOf(
        watchConfirmation({
          watch,
          description: '',
          available: 3,
          past: true,
          intervalSeconds: 60,
        }),
      ),
    ).toContain('already below 20');
  });

  it('the list carries Remove and Snooze buttons whose values decode, and forged values do not', () => {
    const message = watchList({
      watches: [
        watch,
        {
          ...watch,
          id: '2b4e28ba-2fa1-41d2-883f-0016d3cca427',
          state: 'off',
          offReason: 'is_archived',
        },
      ],
      intervalSeconds: 60,
      scope: 'channel',
      now: new Date(),
    });
    const buttons = buttonsOf(message);
    expect(buttons.map((b) => b.action_id.split(':')[0])).toEqual([
      WATCH_ACTION.snooze,
      WATCH_ACTION.snooze,
      WATCH_ACTION.remove,
      WATCH_ACTION.remove,
    ]);
    expect(decodeWatchButton(buttons[1]?.value)).toEqual({ v: 1, t: 'ws', w: watch.id, d: 7 });
    expect(buttons[2]?.accessibility_label).toBe('Remove the watch on WIDGET-9 at Perth');
    expect(buttons[2]?.confirm?.title.text).toBe('Remove this watch?');
    expect(textOf(message)).toContain('the channel was archived');
    expect(decodeWatchButton('{"v":1,"t":"ws","w":"x","d":3}')).toBeUndefined();
    expect(decodeWatchButton('not json')).toBeUndefined();
    expect(checkMessageLimits(message)).toEqual([]);
    const many = Array.from({ length: 60 }, (_, i) => ({
      ...watch,
      id: `1b4e28ba-2fa1-41d2-883f-0016d3cc${String(i).padStart(4, '0')}`,
    }));
    expect(
      checkMessageLimits(
        watchList({ watches: many, intervalSeconds: 60, scope: 'mine', now: new Date() }),
      ),
    ).toEqual([]);
  });

  it('advises /invite when it cannot post, and tells the creator why a watch was switched off', () => {
    expect(textOf(cannotPostWatchAdvice('not_in_channel'))).toContain('/invite');
    expect(
      textOf(watchSwitchedOff({ ...watch, state: 'off', offReason: 'token_revoked' })),
    ).toContain('revoked');
  });

  it('refuses a person at their quota, and another person’s watch naming them only by a user id', () => {
    expect(watchRefusal({ reason: 'user_full', max: 20 })).toEqual(
      noticeMessage(
        'No watch made: you already keep 20 watches, the most one person may (your direct messages with me count too). Remove one with /stock watches or from my Home tab first.',
      ),
    );
    const held = (who: string) =>
      `No watch made: ${who} already watches this item here (same branch and direction), and a watch belongs to the person who set it. Ask them to change it, or watch another branch or threshold direction.`;
    const mrkdwn = (text: string) => ({
      text,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
    });
    expect(watchRefusal({ reason: 'watched_by_other', creatorId: 'U0123ABC' })).toEqual(
      mrkdwn(held('<@U0123ABC>')),
    );
    for (const creatorId of ['', '<!channel>', 'C0123ABC']) {
      expect(watchRefusal({ reason: 'watched_by_other', creatorId })).toEqual(
        mrkdwn(held('someone else')),
      );
    }
  });

  it('tells a creator about several watches switched off together in one message', () => {
    const off = { ...watch, state: 'off' as const, offReason: 'is_archived' };
    expect(watchesSwitchedOff([])).toBeUndefined();
    expect(watchesSwitchedOff([off])).toEqual(watchSwitchedOff(off));
    const many = Array.from({ length: 25 }, (_, i) => ({ ...off, code: `W<${i}>` }));
    const message = watchesSwitchedOff(many);
    const text = textOf(message ?? { text: '' });
    expect(text).toContain(
      'Your 25 watches in <#C0123ABC> are switched off: the channel was archived',
    );
    expect(text).toContain('`W&lt;0&gt;`');
    expect(text).toContain('and 15 more');
    expect(checkMessageLimits(message ?? { text: '', blocks: [] })).toEqual([]);
  });

  it('the Watch… button opens a modal whose metadata decodes', () => {
    const button = watchOpenButton('WIDGET-9', 'C0123ABC');
    const state = decodeWatchOpen(button?.value);
    expect(state).toEqual({ v: 1, t: 'wo', c: 'WIDGET-9', ch: 'C0123ABC' });
    const modal = watchModal({
      state: state ?? { v: 1, t: 'wo', c: 'x' },
      description: 'Blue widget',
      branches: ['Perth', 'Sydney'],
    });
    expect(modal.callback_id).toBe('watch_modal');
    expect(decodeWatchOpen(modal.private_metadata)).toEqual(state);
    expect(modal.blocks.map((b) => b.block_id).filter(Boolean)).toEqual([
      'watch_direction',
      'watch_threshold',
      'watch_branch',
      'watch_channel',
    ]);
  });

  it('the alert names the branch (or company-wide) in its first line and its fallback; snoozed, no mention leads', () => {
    const perth = watchAlert(alertModel);
    expect(perth.text).toBe(
      '<@U0PURCH01> <!subteam^S0GROUP01> ⚠️ WIDGET-9 at Perth is below 20: 12 available, checked 2 min ago',
    );
    const wide = watchAlert({ ...alertModel, branchName: undefined, mentions: [] });
    expect(wide.text).toBe('⚠️ WIDGET-9 company-wide is below 20: 12 available, checked 2 min ago');
    const quiet = watchAlert({ ...alertModel, snoozedUntil: new Date('2026-03-03T10:45:00Z') });
    expect(quiet.text).toBe(
      '⚠️ WIDGET-9 at Perth is below 20: 12 available, checked 2 min ago (snoozed)',
    );
    expect(textOf(quiet)).toContain(':zzz: snoozed until <!date^');
    const over = watchAlert({ ...alertModel, now: -13, mentions: [] });
    expect(over.text).toContain('−13 available (over-allocated by 13)');
    expect(textOf(over)).toContain('*Available:* −13 (over-allocated by 13)');
  });

  it('a second watch on the same key: the question, with Replace carrying the new watch and Cancel', () => {
    const message = watchReplaceAsk({
      existing: { ...watch, threshold: 5, branchName: 'Perth' },
      proposed: {
        channelId: 'C0123ABC',
        code: 'WIDGET-9',
        branchName: 'Perth',
        direction: 'below',
        threshold: 10,
        notify: ['<@U0PURCH01>'],
      },
    });
    expect(textOf(message)).toContain(
      'You already watch `WIDGET-9` at Perth *below 5* in <#C0123ABC>: replace it with *below 10*?',
    );
    expect(message.text).toBe(
      'You already watch WIDGET-9 at Perth below 5 here: nothing changed yet.',
    );
    const [replace, cancel] = buttonsOf(message);
    expect(replace?.text).toBe('Replace');
    expect(JSON.stringify(message.blocks)).toContain('"style":"primary"');
    expect(decodeWatchReplace(replace?.value)).toEqual({
      v: 1,
      t: 'wp',
      ch: 'C0123ABC',
      c: 'WIDGET-9',
      b: 'Perth',
      d: 'below',
      n: 10,
      no: ['<@U0PURCH01>'],
    });
    expect(cancel?.text).toBe('Cancel');
    expect(decodeWatchReplace(cancel?.value)).toEqual({ v: 1, t: 'wk', c: 'WIDGET-9' });
    // A forged mention in the value is refused, like any forged value.
    const forged = JSON.stringify({ ...JSON.parse(replace?.value ?? '{}'), no: ['<!channel>'] });
    expect(decodeWatchReplace(forged)).toBeUndefined();
    expect(checkMessageLimits(message)).toEqual([]);
  });

  it('the digest turned on says the next one in the zone given, then as a date token; the fallback relative', () => {
    const answer = digestAnswer({
      kind: 'on',
      minuteOfDay: 480,
      zone: 'Australia/Perth',
      nextAt: new Date('2026-12-02T00:00:00Z'),
      now: new Date('2026-12-01T15:00:00Z'),
    });
    const shown = textOf({ blocks: answer.blocks });
    expect(shown).toContain(
      'The next: Wed 2 Dec at 08:00 Australia/Perth (<!date^1796169600^{date_short_pretty} at {time}|',
    );
    expect(shown).toContain('your time)');
    expect(answer.text).toContain('The next: in 9 h.');
    expect(answer.text).not.toMatch(/UTC|<!date/);
    const status = digestAnswer({
      kind: 'status',
      setting: { minuteOfDay: 480, zone: 'UTC', nextAt: new Date('2026-12-02T08:00:00Z') },
      now: new Date('2026-12-01T15:00:00Z'),
    });
    expect(textOf({ blocks: status.blocks })).toContain(
      'the next: Wed 2 Dec at 08:00 UTC (<!date^',
    );
    expect(status.text).toContain('the next: in 17 h.');
  });
});
