/**
 * A channel's watches (`/stock watches`) and a person's own (App Home): each with where it
 * stands now, its days of cover when the history shows them, and its buttons (Snooze a day,
 * Snooze a week, Remove with a confirm dialog, each labelled with the watch it acts on).
 */
import type { KnownBlock } from '@slack/types';
import { actions, context, LIMITS, md, section } from './blocks.js';
import { noticeMessage } from './feedback.js';
import { codeSpan, plural, slackTime } from './format.js';
import type { SlackMessage } from './message.js';
import { removeButton, snoozeButtons } from './watchButtons.js';
import {
  availableWords,
  channelLink,
  coverPhrase,
  interval,
  offReason,
  rule,
  type WatchSummary,
  where,
} from './watchWords.js';

interface WatchListModel {
  watches: readonly WatchSummary[];
  intervalSeconds: number;
  /** `channel`: `/stock watches`; `mine`: the person's own (shows the channel of each). */
  scope: 'channel' | 'mine';
  now: Date;
}

const MAX_LISTED = 20;

/** Where a watch stands now, in one line: off, snoozed, past, or watching; with cover. */
function standing(w: WatchSummary, now: Date): string {
  const state =
    w.state === 'off'
      ? `:no_entry: off: ${offReason(w.offReason)}`
      : w.snoozedUntil !== undefined && w.snoozedUntil > now
        ? `:zzz: snoozed until ${slackTime(w.snoozedUntil)}`
        : w.state === 'past'
          ? ':warning: past the threshold now'
          : ':eyes: watching';
  const cover = w.state === 'off' ? undefined : coverPhrase(w.cover);
  return cover === undefined ? state : `${state} · ${cover}`;
}

function watchLine(w: WatchSummary, scope: 'channel' | 'mine'): string {
  const here = scope === 'mine' ? ` in ${channelLink(w.channelId)}` : '';
  const checked = w.checkedAt === undefined ? '' : ` (${slackTime(w.checkedAt, '{ago}')})`;
  const now =
    w.lastAvailable === undefined ? '' : ` · ${availableWords(w.lastAvailable)}${checked}`;
  return `${codeSpan(w.code)} ${where(w.branchName)}: ${rule(w)}${here}${now}`;
}

export function watchList(model: WatchListModel): SlackMessage {
  if (model.watches.length === 0) {
    return noticeMessage(
      model.scope === 'channel'
        ? 'No watches in this channel. Add one with `/stock watch [item code] below 20` (or `above` a number).'
        : 'You have no watches. Add one in a channel with `/stock watch [item code] below 20`.',
    );
  }
  const blocks: KnownBlock[] = [
    section(
      `*${plural(model.watches.length, 'watch', 'watches')}* ${model.scope === 'channel' ? 'in this channel' : 'you set'} · checked ${interval(model.intervalSeconds)}`,
    ),
  ];
  for (const w of model.watches.slice(0, MAX_LISTED)) {
    blocks.push({
      type: 'section',
      text: md(
        `${watchLine(w, model.scope)}\n${standing(w, model.now)} · set by <@${w.creatorId}>`,
        LIMITS.sectionText,
      ),
    });
    const row = actions([...(w.state === 'off' ? [] : snoozeButtons(w)), removeButton(w)]);
    if (row) blocks.push(row);
  }
  if (model.watches.length > MAX_LISTED) {
    blocks.push(
      context(
        `${model.watches.length - MAX_LISTED} more not shown: remove some with \`/stock unwatch CODE\`.`,
      ),
    );
  }
  return {
    text: `${plural(model.watches.length, 'watch', 'watches')}`,
    blocks: blocks.slice(0, LIMITS.blocks),
  };
}

const MAX_HOME = 15;

/** App Home's part: the person's watches, each with where it stands and its days of cover. */
export function homeWatchBlocks(watches: readonly WatchSummary[], now: Date): KnownBlock[] {
  if (watches.length === 0) {
    return [
      section(
        '*Your watches*\nNone: `/stock watch [item code] below [number]` tells a channel when stock runs low.',
      ),
    ];
  }
  const blocks: KnownBlock[] = [section(`*Your watches* (${watches.length})`)];
  for (const w of watches.slice(0, MAX_HOME)) {
    blocks.push({
      type: 'section',
      text: md(`${watchLine(w, 'mine')}\n${standing(w, now)}`, LIMITS.sectionText),
      accessory: removeButton(w),
    });
  }
  if (watches.length > MAX_HOME) {
    blocks.push(
      context(
        `…and ${plural(watches.length - MAX_HOME, 'more watch', 'more watches')}: \`/stock watches\` in their channels lists them all.`,
      ),
    );
  }
  return blocks;
}
