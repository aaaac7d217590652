import { describe, expect, it } from 'vitest';
import { ACTION, decodeState } from '../../src/views/actions.js';
import { checkMessageLimits } from '../../src/views/limits.js';
import {
  cannotPostWatchAdvice,
  decodeWatchButton,
  decodeWatchOpen,
  WATCH_ACTION,
  type WatchSummary,
  watchAlert,
  watchConfirmation,
  watchesSwitchedOff,
  watchList,
  watchModal,
  watchOpenButton,
  watchSwitchedOff,
} from '../../src/views/watches.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';

const watch: WatchSummary = {
  id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  channelId: 'C0123ABC',
  creatorId: 'U0123ABC',
  code: 'WIDGET-9',
  itemId: 1001,
  branchName: 'Perth',
  direction: 'below',
  threshold: 20,
  state: 'armed',
  offReason: undefined,
  lastAvailable: 30,
  snoozedUntil: undefined,
};

const alertModel = {
  code: 'WIDGET-9',
  itemId: 1001,
  description: 'Blue <widget> & co',
  branchName: 'Perth',
  direction: 'below' as const,
  threshold: 20,
  now: 12,
  before: 30,
  onOrder: 40,
  checkedAt: new Date('2026-03-02T10:45:00Z'),
  rearmed: false,
};

describe('watch views', () => {
  it('the alert shows now, before, threshold, on order and when, with the item View button, and no cost', () => {
    const message = watchAlert(alertModel);
    const text = textOf(message);
    for (const part of [
      'Available now:* 12',
      'Before:* 30',
      'below 20',
      'On order:* 40',
      'at Perth',
      '&lt;widget&gt;',
    ]) {
      expect(text).toContain(part);
    }
    expect(text).not.toMatch(/cost/i);
    const view = buttonsOf(message).find((b) => b.action_id === ACTION.itemView);
    expect(decodeState(view?.value)).toMatchObject({
      ok: true,
      state: { t: 'i', r: { c: 'WIDGET-9' } },
    });
    expect(checkMessageLimits(message)).toEqual([]);
    expect(textOf(watchAlert({ ...alertModel, rearmed: true }))).toContain('re-armed');
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
});
