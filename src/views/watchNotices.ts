/**
 * What the watches say besides the alert and the lists: the visible confirmation of a new
 * watch, refusals and their advice, switch-off notices, and the private answers to Remove,
 * Snooze, unwatch and the digest's settings.
 */
import type { KnownBlock } from '@slack/types';
import { MEMBER_ID } from '../ids/member.js';
import { actions, context, LIMITS, section, truncatePlain } from './blocks.js';
import { noticeMessage } from './feedback.js';
import {
  codeSpan,
  escapeMrkdwn,
  escapeTruncated,
  relativeTime,
  slackTime,
  zonedTime,
} from './format.js';
import type { SlackMessage } from './message.js';
import { removeAllButton, removeButton, replaceButtons } from './watchButtons.js';
import {
  availableQty,
  channelLink,
  interval,
  mentionsOf,
  offReason,
  rule,
  type WatchSummary,
  where,
} from './watchWords.js';

interface ConfirmationModel {
  watch: WatchSummary;
  description: string;
  available: number;
  past: boolean;
  intervalSeconds: number;
  /** The `notify` tokens, as stored. */
  notify?: string | undefined;
}

export function watchConfirmation(model: ConfirmationModel): SlackMessage {
  const { watch } = model;
  const what = `${codeSpan(watch.code)} ${where(watch.branchName)}`;
  const line = `:eyes: <@${watch.creatorId}> set a watch: I will tell this channel when ${what} is *${rule(watch)}* available.`;
  const now = model.past
    ? `Available now: *${availableQty(model.available)}*, already ${rule(watch)}: I will speak when it changes side.`
    : `Available now: *${availableQty(model.available)}*.`;
  const mentions = mentionsOf(model.notify);
  const notify = mentions.length > 0 ? `\nAlerts will mention ${mentions.join(' ')}.` : '';
  return {
    text: escapeTruncated(
      `Watch set on ${watch.code} ${watch.branchName === undefined ? 'company-wide' : `at ${watch.branchName}`}: tell this channel when it is ${rule(watch)} available (now ${availableQty(model.available)}).`,
      LIMITS.fallbackText,
    ),
    blocks: [
      section(`${line}\n${now}${notify}`),
      context(
        `${escapeTruncated(model.description, 200)} · checked ${interval(model.intervalSeconds)} · \`/stock watches\` lists this channel's watches`,
      ),
    ],
  };
}

/** Why no watch was made, or a watch could not be changed: each kind carries what its words need. */
export type WatchRefusal =
  | { reason: 'channel_full'; max: number }
  /** The person already keeps the most watches one person may. */
  | { reason: 'user_full'; max: number }
  /** Another person's watch on that item, branch, direction and channel: never overwritten. */
  | { reason: 'watched_by_other'; creatorId: string }
  | { reason: 'interval_too_long'; intervalMinutes: number; maxMinutes: number }
  | { reason: 'item_not_found'; code: string }
  | { reason: 'branch_not_found'; branch: string; branches: readonly string[] }
  | { reason: 'bad_threshold' }
  | { reason: 'watches_off_shared_without_database' }
  | { reason: 'store_unavailable' }
  /** Posted, then the database refused it: the confirmation was deleted unless left. */
  | { reason: 'not_saved'; confirmationLeft: boolean }
  | { reason: 'not_found' }
  /** Stop, Remove or Snooze on someone else's watch by a guest or a Slack Connect partner. */
  | { reason: 'not_yours' };

export function watchRefusal(refusal: WatchRefusal): SlackMessage {
  switch (refusal.reason) {
    case 'channel_full':
      return noticeMessage(
        `This channel already has ${refusal.max} watches, the most it can have. Remove one with /stock watches first.`,
      );
    case 'user_full':
      return noticeMessage(
        `No watch made: you already keep ${refusal.max} watches, the most one person may (your direct messages with me count too). Remove one with /stock watches or from my Home tab first.`,
      );
    case 'watched_by_other': {
      // Built as mrkdwn so the mention renders; the id is checked by shape first.
      const who = MEMBER_ID.test(refusal.creatorId) ? `<@${refusal.creatorId}>` : 'someone else';
      const text = `No watch made: ${who} already watches this item here (same branch and direction), and a watch belongs to the person who set it. Ask them to change it, or watch another branch or threshold direction.`;
      return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
    }
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
    case 'not_yours':
      return noticeMessage(
        'Nothing changed: only the person who set this watch, or a full member of this workspace, may stop, remove or snooze it.',
      );
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

/**
 * A notice whose parts are already escaped (noticeMessage would escape the channel link).
 * `plain`: the fallback where the blocks carry a date token (Slack renders none in `text`).
 */
function offNotice(mrkdwn: string, plain = mrkdwn): SlackMessage {
  return {
    text: truncatePlain(plain, LIMITS.fallbackText),
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

export function watchSnoozed(watch: WatchSummary, until: Date, now: Date): SlackMessage {
  const head = `The watch on ${codeSpan(watch.code)} (${where(watch.branchName)}) is snoozed`;
  return offNotice(
    `${head} until ${slackTime(until)}: no alerts until then.`,
    `${head}: alerts resume ${relativeTime(until, now)}.`,
  );
}

/** `/stock unwatch CODE` that matches several: nothing removed yet, the buttons ask first. */
export function unwatchSeveral(watches: readonly WatchSummary[]): SlackMessage {
  const first = watches[0];
  if (first === undefined) return watchRefusal({ reason: 'not_found' });
  const blocks: KnownBlock[] = [
    section(
      `${codeSpan(first.code)} has ${watches.length} watches in this channel. Remove them all, or one:`,
    ),
  ];
  const all = actions([removeAllButton(watches)]);
  if (all) blocks.push(all);
  for (const w of watches.slice(0, 20)) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: `${where(w.branchName)}: ${rule(w)}`, verbatim: true },
      accessory: removeButton(w),
    });
  }
  return {
    text: escapeTruncated(
      `${first.code} has ${watches.length} watches here: nothing removed yet.`,
      LIMITS.fallbackText,
    ),
    blocks: blocks.slice(0, LIMITS.blocks),
  };
}

type DigestAnswer =
  | { kind: 'on'; minuteOfDay: number; zone: string; nextAt: Date; now: Date; demand?: boolean }
  | { kind: 'off'; wasOn: boolean }
  | {
      kind: 'status';
      setting: { minuteOfDay: number; zone: string; nextAt: Date } | undefined;
      now: Date;
    };

function timeOfDay(minute: number, zone: string): string {
  const hh = String(Math.floor(minute / 60)).padStart(2, '0');
  const mm = String(minute % 60).padStart(2, '0');
  return `${hh}:${mm} ${escapeMrkdwn(zone)}`;
}

/**
 * The next digest in the zone the person named (what they asked for, however their own Slack
 * is set), then as a date token, which each reader sees in their own zone; in the fallback,
 * relative.
 */
function nextDigest(nextAt: Date, zone: string): string {
  return `${escapeMrkdwn(zonedTime(nextAt, zone))} (${slackTime(nextAt, '{date_short_pretty} at {time}')} your time)`;
}

/** The private answer to `/stock digest on|off`, or to `/stock digest` alone. */
export function digestAnswer(answer: DigestAnswer): SlackMessage {
  let line: string;
  if (answer.kind === 'on') {
    const head = answer.demand
      ? `Daily digest on: every day at ${timeOfDay(answer.minuteOfDay, answer.zone)}, this channel gets one message listing its watches past their threshold and the last 7 days' unmet demand (none when there is neither).`
      : `Daily digest on: every day at ${timeOfDay(answer.minuteOfDay, answer.zone)}, this channel gets one message listing its watches past their threshold (none when there are none).`;
    return offNotice(
      `${head} The next: ${nextDigest(answer.nextAt, answer.zone)}.`,
      `${head} The next: ${relativeTime(answer.nextAt, answer.now)}.`,
    );
  }
  if (answer.kind === 'off') {
    line = answer.wasOn
      ? 'Daily digest off: this channel gets no more digests. Alerts carry on.'
      : 'This channel had no daily digest. `/stock digest on 08:00` starts one.';
  } else {
    const { setting } = answer;
    if (setting !== undefined) {
      const head = `This channel's digest comes every day at ${timeOfDay(setting.minuteOfDay, setting.zone)}; the next:`;
      const tail = '`/stock digest off` stops it.';
      return offNotice(
        `${head} ${nextDigest(setting.nextAt, setting.zone)}. ${tail}`,
        `${head} ${relativeTime(setting.nextAt, answer.now)}. ${tail}`,
      );
    }
    line =
      'This channel has no daily digest. `/stock digest on 08:00 Australia/Perth` starts one (UTC without a zone).';
  }
  return offNotice(line);
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

/** A watch of the person's own already on that key: what it is, and what would replace it. */
export interface ReplaceQuestion {
  existing: WatchSummary;
  proposed: {
    channelId: string;
    code: string;
    branchName: string | undefined;
    direction: 'below' | 'above';
    threshold: number;
    notify: readonly string[];
  };
}

/**
 * "You already watch WIDGET-9 at Perth below 5 here: replace it with below 10?", with Replace
 * and Cancel. Nothing changed yet: the first watch stands until Replace is pressed.
 */
export function watchReplaceAsk(question: ReplaceQuestion): SlackMessage {
  const { existing, proposed } = question;
  const place = where(existing.branchName);
  const same = existing.threshold === proposed.threshold;
  const line = same
    ? `You already watch ${codeSpan(existing.code)} ${place} *${rule(existing)}* in ${channelLink(proposed.channelId)}. Set it again (its alert starts over, with the mentions you gave now)?`
    : `You already watch ${codeSpan(existing.code)} ${place} *${rule(existing)}* in ${channelLink(proposed.channelId)}: replace it with *${rule(proposed)}*?`;
  const plainPlace =
    existing.branchName === undefined ? 'company-wide' : `at ${existing.branchName}`;
  const buttons = replaceButtons(
    {
      v: 1,
      t: 'wp',
      ch: proposed.channelId,
      c: proposed.code,
      ...(proposed.branchName === undefined ? {} : { b: proposed.branchName }),
      d: proposed.direction,
      n: proposed.threshold,
      ...(proposed.notify.length > 0 ? { no: [...proposed.notify] } : {}),
    },
    `Replace the watch on ${existing.code} ${plainPlace} ${rule(existing)} with ${rule(proposed)}`,
  );
  const row = actions(buttons);
  return {
    text: escapeTruncated(
      `You already watch ${existing.code} ${plainPlace} ${rule(existing)} here: nothing changed yet.`,
      LIMITS.fallbackText,
    ),
    blocks: [section(line), ...(row ? [row] : [])],
  };
}

/** Cancel under the question: the first watch stands. */
export function watchKept(code: string): SlackMessage {
  return noticeMessage(`Nothing changed: your watch on ${code} stays as it was.`);
}

/** What making a watch came to, as the watch service says it. */
type WatchMade =
  | { ok: true; watch: WatchSummary; past: boolean }
  | { ok: false; refusal: WatchRefusal }
  | { ok: false; cannotPost: string }
  | { ok: false; replace: ReplaceQuestion };

/** The answer to the person who made a watch, or was refused one (a command or the modal). */
export function watchMadeAnswer(made: WatchMade): SlackMessage {
  if (made.ok) return watchCreatedNote(made.watch, made.past);
  if ('replace' in made) return watchReplaceAsk(made.replace);
  return 'refusal' in made ? watchRefusal(made.refusal) : cannotPostWatchAdvice(made.cannotPost);
}
