/**
 * Every word of the watches: the confirmation in the channel, the alert (posted once per
 * crossing, then updated in place), the list with its Remove and Snooze buttons, refusals,
 * the "cannot post here" advice, switch-off notices and the Watch… modal.
 *
 * Alerts go to a whole channel, so they are redacted like any shared card: no cost, ever.
 * Buttons carry their state in their value (zod-checked when clicked).
 */

import type { Button, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import { ACTION } from './actions.js';
import type { HomeWatchRow } from './appHome.js';
import { actions, context, header, md, plain, section, stateButton } from './blocks.js';
import { noticeMessage } from './feedback.js';
import { formatQty, plural, slackTime, utcTime } from './format.js';
import { LIMITS, truncatePlain } from './limits.js';
import type { SlackMessage } from './message.js';
import { codeSpan, escapeMrkdwn, escapeTruncated } from './mrkdwn.js';
import { itemState } from './states.js';

export const WATCH_ACTION = {
  remove: 'watch_remove',
  snooze: 'watch_snooze',
  /** The "Watch…" button on item cards: opens the modal. */
  open: 'watch_open',
} as const;

export const WATCH_MODAL = {
  callbackId: 'watch_modal',
  thresholdBlock: 'watch_threshold',
  thresholdAction: 'watch_threshold_input',
  directionBlock: 'watch_direction',
  directionAction: 'watch_direction_input',
  branchBlock: 'watch_branch',
  branchAction: 'watch_branch_input',
  channelBlock: 'watch_channel',
  channelAction: 'watch_channel_input',
} as const;

/** The Watch… modal's field error when no channel was chosen. */
export const WATCH_MODAL_NO_CHANNEL = 'Choose a channel.';

const watchId = z.string().uuid();

/** Remove and Snooze buttons: which watch, and for Snooze how many days. */
export const WatchButtonState = z.discriminatedUnion('t', [
  z.object({ v: z.literal(1), t: z.literal('wr'), w: watchId }).strict(),
  z
    .object({
      v: z.literal(1),
      t: z.literal('ws'),
      w: watchId,
      d: z.union([z.literal(1), z.literal(7)]),
    })
    .strict(),
]);
export type WatchButtonState = z.infer<typeof WatchButtonState>;

/** The Watch… button and the modal's private_metadata: the item, and where it was opened. */
export const WatchOpenState = z
  .object({
    v: z.literal(1),
    t: z.literal('wo'),
    c: z.string().min(1).max(100),
    ch: z
      .string()
      .regex(/^[CGD][A-Z0-9]{2,30}$/)
      .optional(),
  })
  .strict();
export type WatchOpenState = z.infer<typeof WatchOpenState>;

/** Never throws: undefined for a forged, stale or malformed value. */
export function decodeWatchButton(value: unknown): WatchButtonState | undefined {
  return decodeJson(value, WatchButtonState);
}

export function decodeWatchOpen(value: unknown): WatchOpenState | undefined {
  return decodeJson(value, WatchOpenState);
}

function decodeJson<T>(value: unknown, schema: z.ZodType<T>): T | undefined {
  if (typeof value !== 'string' || value.length > 2000) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function button(label: string, actionId: string, value: string, style?: 'danger'): Button {
  return {
    type: 'button',
    action_id: actionId,
    text: plain(label, LIMITS.buttonText),
    value,
    ...(style ? { style } : {}),
  };
}

/** What a view needs to know about one watch. */
export interface WatchSummary {
  id: string;
  channelId: string;
  creatorId: string;
  code: string;
  itemId: number;
  branchName: string | undefined;
  direction: 'below' | 'above';
  threshold: number;
  state: 'armed' | 'past' | 'off';
  offReason: string | undefined;
  lastAvailable: number | undefined;
  snoozedUntil: Date | undefined;
}

const where = (branch: string | undefined) =>
  branch === undefined ? 'company-wide' : `at ${escapeMrkdwn(branch)}`;

function rule(w: Pick<WatchSummary, 'direction' | 'threshold'>): string {
  if (w.direction === 'above' && w.threshold <= 0) return 'back in stock';
  return w.direction === 'below'
    ? `below ${formatQty(w.threshold)}`
    : `${formatQty(w.threshold)} or more`;
}

function interval(seconds: number): string {
  return seconds < 90
    ? `every ${Math.round(seconds)} s`
    : `about every ${Math.round(seconds / 60)} min`;
}

export interface ConfirmationModel {
  watch: WatchSummary;
  description: string;
  available: number;
  past: boolean;
  intervalSeconds: number;
}

export function watchConfirmation(model: ConfirmationModel): SlackMessage {
  const { watch } = model;
  const what = `${codeSpan(watch.code)} ${where(watch.branchName)}`;
  const line = `:eyes: <@${watch.creatorId}> set a watch: I will tell this channel when ${what} is *${rule(watch)}* available.`;
  const now = model.past
    ? `Available now: *${formatQty(model.available)}*, already ${rule(watch)}: I will speak when it changes side.`
    : `Available now: *${formatQty(model.available)}*.`;
  return {
    text: escapeTruncated(
      `Watch set on ${watch.code}: tell this channel when it is ${rule(watch)} available (now ${formatQty(model.available)}).`,
      LIMITS.fallbackText,
    ),
    blocks: [
      section(`${line}\n${now}`),
      context(
        `${escapeTruncated(model.description, 200)} · checked ${interval(model.intervalSeconds)} · \`/stock watches\` lists this channel's watches`,
      ),
    ],
  };
}

export interface AlertModel {
  code: string;
  itemId: number;
  description: string;
  branchName: string | undefined;
  direction: 'below' | 'above';
  threshold: number;
  now: number;
  before: number | undefined;
  onOrder: number;
  checkedAt: Date;
  /** Back on the other side: the alert says it is over and the watch re-armed. */
  rearmed: boolean;
}

export function watchAlert(model: AlertModel): SlackMessage {
  const emoji = model.rearmed
    ? ':white_check_mark:'
    : model.direction === 'below'
      ? ':small_red_triangle_down:'
      : ':small_red_triangle:';
  const title = model.rearmed
    ? `${model.code} is back (${rule(model)} no longer)`
    : `${model.code} is ${rule(model)}`;
  const figures = [
    `*Available now:* ${formatQty(model.now)}`,
    model.before === undefined ? undefined : `*Before:* ${formatQty(model.before)}`,
    `*Threshold:* ${rule(model)}`,
    `*On order:* ${formatQty(model.onOrder)}`,
  ].filter((s): s is string => s !== undefined);
  const view = stateButton(
    'View',
    ACTION.itemView,
    itemState({ code: model.code, id: model.itemId }),
    {
      accessibilityLabel: `View ${model.code} privately`,
    },
  );
  const blocks: KnownBlock[] = [
    header(`${model.rearmed ? '✅' : '⚠️'} ${title}`),
    section(
      `${emoji} ${codeSpan(model.code)} ${escapeTruncated(model.description, 300)} · ${where(model.branchName)}\n${figures.join(' · ')}`,
    ),
    context(
      `Checked ${slackTime(model.checkedAt)}${model.rearmed ? ' · watch re-armed' : ' · this message updates while it stays past the threshold'}`,
    ),
  ];
  const row = actions([view]);
  if (row) blocks.push(row);
  return {
    text: escapeTruncated(
      `${title}: ${formatQty(model.now)} available${model.before === undefined ? '' : ` (was ${formatQty(model.before)})`}, checked ${utcTime(model.checkedAt)}`,
      LIMITS.fallbackText,
    ),
    blocks,
  };
}

const OFF_REASONS: Readonly<Record<string, string>> = {
  channel_not_found: 'the channel no longer exists or I was removed from it',
  is_archived: 'the channel was archived',
  not_in_channel: 'I was removed from the channel',
  account_inactive: 'the account I post with was deactivated',
  token_revoked: 'my access to the workspace was revoked',
  invalid_auth: 'my access to the workspace was revoked',
  no_permission: 'I am no longer allowed to post there',
  restricted_action: 'the workspace no longer lets apps post there',
  item_gone: 'the item is no longer in the ERP',
  branch_gone: 'the branch is no longer on the item in the ERP',
};

function offReason(reason: string | undefined): string {
  return (
    (reason !== undefined && Object.hasOwn(OFF_REASONS, reason)
      ? OFF_REASONS[reason]
      : undefined) ?? 'it could no longer post'
  );
}

export interface WatchListModel {
  watches: readonly WatchSummary[];
  intervalSeconds: number;
  /** `channel`: `/stock watches`; `mine`: App Home (shows the channel of each). */
  scope: 'channel' | 'mine';
  now: Date;
}

const MAX_LISTED = 20;

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
    const status =
      w.state === 'off'
        ? `:no_entry: off: ${offReason(w.offReason)}`
        : w.snoozedUntil !== undefined && w.snoozedUntil > model.now
          ? `:zzz: snoozed until ${slackTime(w.snoozedUntil)}`
          : w.state === 'past'
            ? ':warning: past the threshold now'
            : ':eyes: watching';
    const here = model.scope === 'mine' ? ` in <#${w.channelId}>` : '';
    const now = w.lastAvailable === undefined ? '' : ` · ${formatQty(w.lastAvailable)} available`;
    blocks.push({
      type: 'section',
      text: md(
        `${codeSpan(w.code)} ${where(w.branchName)}: ${rule(w)}${here}${now}\n${status} · set by <@${w.creatorId}>`,
        LIMITS.sectionText,
      ),
    });
    const row = actions([
      w.state === 'off'
        ? undefined
        : button(
            'Snooze a day',
            `${WATCH_ACTION.snooze}:${w.id}:1`,
            JSON.stringify({ v: 1, t: 'ws', w: w.id, d: 1 }),
          ),
      w.state === 'off'
        ? undefined
        : button(
            'Snooze a week',
            `${WATCH_ACTION.snooze}:${w.id}:7`,
            JSON.stringify({ v: 1, t: 'ws', w: w.id, d: 7 }),
          ),
      button(
        'Remove',
        `${WATCH_ACTION.remove}:${w.id}`,
        JSON.stringify({ v: 1, t: 'wr', w: w.id }),
        'danger',
      ),
    ]);
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

export type WatchRefusal =
  | { reason: 'channel_full'; max: number }
  | { reason: 'interval_too_long'; intervalMinutes: number; maxMinutes: number }
  | { reason: 'item_not_found'; code: string }
  | { reason: 'branch_not_found'; branch: string; branches: readonly string[] }
  | { reason: 'bad_threshold' }
  | { reason: 'watches_off_shared_without_database' }
  | { reason: 'store_unavailable' }
  /** Posted, then the database refused it: the confirmation was deleted unless left. */
  | { reason: 'not_saved'; confirmationLeft: boolean }
  | { reason: 'not_found' };

export function watchRefusal(refusal: WatchRefusal): SlackMessage {
  switch (refusal.reason) {
    case 'channel_full':
      return noticeMessage(
        `This channel already has ${refusal.max} watches, the most it can have. Remove one with /stock watches first.`,
      );
    case 'interval_too_long':
      return noticeMessage(
        `No watch made: with one more item, each would be checked only every ${refusal.intervalMinutes} minutes, past the limit of ${refusal.maxMinutes}. Remove a watch on another item, or ask an admin to raise WATCH_SHARE.`,
      );
    case 'item_not_found':
      return noticeMessage(
        `No item with code ${refusal.code} in the ERP, so there is nothing to watch. Check the code with /stock ${refusal.code}.`,
      );
    case 'branch_not_found':
      return noticeMessage(
        `That item has no branch called "${refusal.branch}".${refusal.branches.length > 0 ? ` Its branches: ${refusal.branches.slice(0, 20).join(', ')}.` : ''}`,
      );
    case 'bad_threshold':
      return noticeMessage(
        'The threshold must be a number of 0 or more, e.g. /stock watch WIDGET-9 below 20.',
      );
    case 'watches_off_shared_without_database':
      return noticeMessage(
        'Watches are off here: this app runs several copies sharing Redis but has no DATABASE_URL to keep watches in. Ask an admin to set one.',
      );
    case 'store_unavailable':
      return noticeMessage(
        'Watches are unavailable right now (their database is not answering). Try again in a minute.',
      );
    case 'not_saved':
      return noticeMessage(
        `No watch made: its database did not save it${refusal.confirmationLeft ? ', and the confirmation already posted in the channel could not be taken back; it is not watching anything' : ', so the confirmation posted in the channel was removed'}. Try again in a minute.`,
      );
    case 'not_found':
      return noticeMessage('That watch no longer exists (it may have been removed already).');
  }
}

/** The private advice when the confirmation could not be posted: no watch was made. */
export function cannotPostWatchAdvice(slackError: string): SlackMessage {
  const fix =
    slackError === 'is_archived'
      ? 'This channel is archived, so nothing can be posted in it.'
      : slackError === 'restricted_action' || slackError === 'no_permission'
        ? 'This workspace does not let me post in this channel; ask an admin.'
        : 'I am not in this channel. Invite me with `/invite @app` (my name), then set the watch again.';
  return noticeMessage(`No watch made: I could not post in this channel. ${fix}`);
}

/** The creator's one direct message when a watch is switched off. */
export function watchSwitchedOff(watch: WatchSummary): SlackMessage {
  return offNotice(
    `Your watch on ${codeSpan(watch.code)} (${where(watch.branchName)}, ${rule(watch)}) in ${channelLink(watch.channelId)} is switched off: ${offReason(watch.offReason)}. Set it again in a channel I can post in.`,
  );
}

const CHANNEL_ID = /^[CGD][A-Z0-9]{2,30}$/;

/** A channel mention Slack renders as a link; anything that is not a channel id, no markup. */
function channelLink(channelId: string): string {
  return CHANNEL_ID.test(channelId) ? `<#${channelId}>` : 'a channel';
}

/** A notice whose parts are already escaped (noticeMessage would escape the channel link). */
function offNotice(mrkdwn: string): SlackMessage {
  return {
    text: truncatePlain(mrkdwn, LIMITS.fallbackText),
    blocks: [section(truncatePlain(mrkdwn, 2000))],
  };
}

/** Watches named in one switch-off message: with 100-character codes, well within a section. */
const OFF_NAMED = 10;

/**
 * The one direct message a creator gets when a channel event switches several of their
 * watches off at once (all in one channel, for one reason).
 */
export function watchesSwitchedOff(watches: readonly WatchSummary[]): SlackMessage | undefined {
  const [first] = watches;
  if (first === undefined) return undefined;
  if (watches.length === 1) return watchSwitchedOff(first);
  const shown = watches
    .slice(0, OFF_NAMED)
    .map((w) => `${codeSpan(w.code)} (${where(w.branchName)}, ${rule(w)})`);
  const more = watches.length > OFF_NAMED ? ` and ${watches.length - OFF_NAMED} more` : '';
  return offNotice(
    `Your ${watches.length} watches in ${channelLink(first.channelId)} are switched off: ${offReason(first.offReason)}. They were on ${shown.join(', ')}${more}. Set them again in a channel I can post in.`,
  );
}

/** One message per channel when the ERP no longer has an item. */
export function watchedItemGone(code: string, count: number): SlackMessage {
  return noticeMessage(
    `${code} is no longer in the ERP, so ${count === 1 ? 'its watch here is' : `its ${count} watches here are`} switched off.`,
  );
}

export function watchRemoved(removed: readonly WatchSummary[]): SlackMessage {
  if (removed.length === 0) return watchRefusal({ reason: 'not_found' });
  const first = removed[0];
  return noticeMessage(
    removed.length === 1 && first
      ? `Removed the watch on ${first.code} (${first.branchName === undefined ? 'company-wide' : `at ${first.branchName}`}, ${rule(first)}).`
      : `Removed ${removed.length} watches.`,
  );
}

export function watchSnoozed(watch: WatchSummary, until: Date): SlackMessage {
  return noticeMessage(
    `The watch on ${watch.code} is snoozed until ${utcTime(until)}: no alerts until then.`,
  );
}

/** The Watch… modal: threshold, below/above, branch (optional), channel. */
export function watchModal(model: {
  state: WatchOpenState;
  description: string;
  branches: readonly string[];
}): ModalView {
  const option = (text: string, value: string): PlainTextOption => ({
    text: plain(text, 75),
    value,
  });
  const below = option('falls below', 'below');
  const above = option('rises to or above', 'above');
  const blocks: KnownBlock[] = [
    section(`${codeSpan(model.state.c)} ${escapeTruncated(model.description, 300)}`),
    {
      type: 'input',
      block_id: WATCH_MODAL.directionBlock,
      label: plain('Tell the channel when available'),
      element: {
        type: 'radio_buttons',
        action_id: WATCH_MODAL.directionAction,
        initial_option: below,
        options: [below, above],
      },
    },
    {
      type: 'input',
      block_id: WATCH_MODAL.thresholdBlock,
      label: plain('Threshold'),
      element: {
        type: 'number_input',
        action_id: WATCH_MODAL.thresholdAction,
        is_decimal_allowed: true,
        min_value: '0',
      },
    },
  ];
  if (model.branches.length > 0) {
    blocks.push({
      type: 'input',
      block_id: WATCH_MODAL.branchBlock,
      optional: true,
      label: plain('At branch (empty: company-wide)'),
      element: {
        type: 'static_select',
        action_id: WATCH_MODAL.branchAction,
        options: model.branches.slice(0, 100).map((b) => option(b, b.slice(0, 75))),
      },
    });
  }
  blocks.push({
    type: 'input',
    block_id: WATCH_MODAL.channelBlock,
    label: plain('Channel to tell'),
    element: {
      type: 'conversations_select',
      action_id: WATCH_MODAL.channelAction,
      default_to_current_conversation: true,
      filter: { include: ['public', 'private'], exclude_bot_users: true },
      ...(model.state.ch ? { initial_conversation: model.state.ch } : {}),
    },
  });
  return {
    type: 'modal',
    callback_id: WATCH_MODAL.callbackId,
    title: plain('Watch stock', 24),
    submit: plain('Watch', 24),
    close: plain('Cancel', 24),
    private_metadata: JSON.stringify(model.state),
    blocks,
  };
}

/** The "Watch…" button for item cards (the lead adds it to the card's actions). */
export function watchOpenButton(code: string, channelId: string | undefined): Button | undefined {
  const state = WatchOpenState.safeParse({
    v: 1,
    t: 'wo',
    c: code,
    ...(channelId ? { ch: channelId } : {}),
  });
  if (!state.success) return undefined;
  return button('Watch…', WATCH_ACTION.open, JSON.stringify(state.data));
}

/** The private answer to a watch set: the channel has the visible confirmation. */
export function watchCreatedNote(watch: WatchSummary, past: boolean): SlackMessage {
  return noticeMessage(
    `Watch set on ${watch.code} (${watch.branchName === undefined ? 'company-wide' : `at ${watch.branchName}`}, ${rule(watch)}); the confirmation is in the channel.${past ? ' It is already past the threshold: the channel hears when it changes side.' : ''}`,
  );
}

/** A watch command where Slack named no channel (it cannot be told anything). */
export function watchNeedsChannelText(): string {
  return 'Set a watch from the channel it should tell: run /stock watch there.';
}

/** A person's watches as App Home lists them, each with its own Remove button. */
export function homeWatchRows(watches: readonly WatchSummary[]): HomeWatchRow[] {
  return watches.map((w) => ({
    code: w.code,
    ...(w.branchName === undefined ? {} : { branch: w.branchName }),
    direction: w.direction,
    threshold: w.threshold,
    channelId: w.channelId,
    ...(w.state === 'off' ? { off: offReason(w.offReason) } : {}),
    ...(w.snoozedUntil === undefined ? {} : { snoozedUntil: w.snoozedUntil }),
    remove: {
      actionId: `${WATCH_ACTION.remove}:${w.id}`,
      value: JSON.stringify({ v: 1, t: 'wr', w: w.id }),
    },
  }));
}
