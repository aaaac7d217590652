/**
 * A watch's story in its channel: the alert (the thread's root, posted at the first crossing,
 * its first line updated in place to say where the watch stands now), the replies in its
 * thread (a later crossing, a return, who snoozed or stopped it), and the daily digest.
 *
 * Alerts go to a whole channel, so they are redacted like any shared card: no cost, ever.
 */
import type { KnownBlock } from '@slack/types';
import { ACTION, itemState } from './actions.js';
import { actions, context, header, LIMITS, section, stateButton } from './blocks.js';
import { DEMAND_DAYS_SHOWN, type DemandRow, demandLine } from './demand.js';
import { codeSpan, escapeTruncated, formatQty, plural, relativeTime, slackTime } from './format.js';
import type { SlackMessage } from './message.js';
import { snoozeButtons, stopButton } from './watchButtons.js';
import {
  availableQty,
  availableWords,
  type CoverModel,
  coverPhrase,
  rule,
  ruleReturned,
  signedQty,
  type WatchSummary,
  where,
} from './watchWords.js';

export interface AlertModel {
  watchId: string;
  code: string;
  itemId: number;
  description: string;
  branchName: string | undefined;
  direction: 'below' | 'above';
  threshold: number;
  /** Available at the last check. */
  now: number;
  onOrder: number;
  checkedAt: Date;
  /** `past`: crossed and still past; `back`: returned to the other side; `stopped`: removed. */
  standing: 'past' | 'back' | 'stopped';
  /** The latest crossing: the quantity before it, and when. */
  crossing: { before: number | undefined; at: Date } | undefined;
  cover: CoverModel | undefined;
  /** Slack mention tokens (`<@U…>`, `<!subteam^S…>`), already checked. */
  mentions: readonly string[];
  /** Who stopped it (with `stopped`). */
  stoppedBy?: string;
  /** Snoozed until then: no alerts, and no mention leads the text. */
  snoozedUntil?: Date | undefined;
  /** When the message is drawn: the fallback's times are relative to it. */
  asOf: Date;
}

/** Snoozed at the time the message is drawn. */
function snoozed(model: AlertModel): boolean {
  return model.snoozedUntil !== undefined && model.snoozedUntil > model.asOf;
}

/**
 * Plain text (the header and the fallback escape it their own way): the item, where (a
 * branch, or company-wide), where it stands, the quantity.
 */
function firstLine(model: AlertModel): string {
  const what = `${model.code} ${model.branchName === undefined ? 'company-wide' : `at ${model.branchName}`}`;
  const qty = availableWords(model.now);
  if (model.standing === 'stopped') return `⏹️ ${what}: no longer watched (${qty})`;
  if (model.standing === 'back') return `✅ ${what} is ${ruleReturned(model)}: ${qty}`;
  return `⚠️ ${what} is ${rule(model)}: ${qty}`;
}

/** "fell below 20 on <date> (from 25)": the crossing in words, never a bare "Before". */
function crossingLine(model: AlertModel): string | undefined {
  const { crossing } = model;
  if (crossing === undefined || model.standing !== 'past') return undefined;
  const verb =
    model.direction === 'below'
      ? `Fell ${rule(model)}`
      : model.threshold <= 0
        ? 'Came back in stock'
        : `Rose to ${rule(model)}`;
  const from = crossing.before === undefined ? '' : ` (from ${signedQty(crossing.before)})`;
  return `${verb} ${slackTime(crossing.at)}${from}`;
}

export function watchAlert(model: AlertModel): SlackMessage {
  const figures = [
    `*Available:* ${availableQty(model.now)}`,
    `*Threshold:* ${rule(model)}`,
    `*On order:* ${formatQty(model.onOrder)}`,
  ];
  const lines = [
    `${codeSpan(model.code)} ${escapeTruncated(model.description, 300)} · ${where(model.branchName)}`,
    figures.join(' · '),
    crossingLine(model),
    model.standing === 'stopped' ? undefined : capital(coverPhrase(model.cover)),
    model.standing === 'stopped' && model.stoppedBy
      ? `Stopped by <@${model.stoppedBy}>`
      : undefined,
    model.mentions.length > 0 && model.standing !== 'stopped'
      ? `For ${model.mentions.join(' ')}`
      : undefined,
  ].filter((line): line is string => line !== undefined);
  const quiet =
    model.standing !== 'stopped' && snoozed(model) && model.snoozedUntil !== undefined
      ? `:zzz: snoozed until ${slackTime(model.snoozedUntil)}, no alerts until then`
      : undefined;
  const story =
    model.standing === 'stopped' ? 'the thread keeps its story' : 'changes are told in this thread';
  const blocks: KnownBlock[] = [
    header(firstLine(model)),
    section(lines.join('\n')),
    context([`Checked ${slackTime(model.checkedAt)}`, quiet ?? story].join(' · ')),
  ];
  const view = stateButton(
    'View',
    ACTION.itemView,
    itemState({ code: model.code, id: model.itemId }),
    { accessibilityLabel: `View ${model.code} privately` },
  );
  const named = { id: model.watchId, code: model.code, branchName: model.branchName };
  const row =
    model.standing === 'stopped'
      ? actions([view])
      : actions([view, ...snoozeButtons(named), stopButton(named)]);
  if (row) blocks.push(row);
  // Mentions lead the fallback while past: that text is what notifies them. Not while
  // snoozed: nobody is to be called for it until the snooze ends.
  const mentionText =
    model.standing === 'past' && !snoozed(model) && model.mentions.length > 0
      ? `${model.mentions.join(' ')} `
      : '';
  const fallback = escapeTruncated(
    `${firstLine(model)}, checked ${relativeTime(model.checkedAt, model.asOf)}${snoozed(model) ? ' (snoozed)' : ''}`,
    LIMITS.fallbackText - mentionText.length,
  );
  return { text: `${mentionText}${fallback}`, blocks };
}

function capital(text: string | undefined): string | undefined {
  return text === undefined ? undefined : `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

export interface TurnModel {
  code: string;
  direction: 'below' | 'above';
  threshold: number;
  now: number;
  /** `past`: crossed again; `back`: returned. */
  standing: 'past' | 'back';
  before: number | undefined;
  checkedAt: Date;
  cover: CoverModel | undefined;
  mentions: readonly string[];
}

/** A later crossing or a return, as a reply in the alert's thread. */
export function watchTurnReply(model: TurnModel): SlackMessage {
  const qty = availableWords(model.now);
  const from = model.before === undefined ? '' : ` (was ${signedQty(model.before)})`;
  const line =
    model.standing === 'back'
      ? `✅ ${capital(ruleReturned(model))}: ${qty}${from}`
      : `⚠️ ${capital(rule(model))} again: ${qty}${from}`;
  const cover = model.standing === 'past' ? capital(coverPhrase(model.cover)) : undefined;
  const mentions =
    model.standing === 'past' && model.mentions.length > 0 ? `${model.mentions.join(' ')} ` : '';
  const text = [`${mentions}${escapeTruncated(line, 500)}`, cover]
    .filter((l): l is string => l !== undefined)
    .join('\n');
  return {
    text: `${mentions}${escapeTruncated(line, 500)}`,
    blocks: [section(text), context(`Checked ${slackTime(model.checkedAt)}`)],
  };
}

/** "<@U1> snoozed this watch until …" / "<@U1> stopped this watch": said in the thread. */
export function watchPressNote(
  userId: string,
  press: { kind: 'snooze'; until: Date } | { kind: 'stop' },
  now: Date,
): SlackMessage {
  const line =
    press.kind === 'snooze'
      ? `:zzz: <@${userId}> snoozed this watch until ${slackTime(press.until)}: no alerts until then.`
      : `:black_square_for_stop: <@${userId}> stopped this watch.`;
  const text =
    press.kind === 'snooze'
      ? `Snoozed: alerts resume ${relativeTime(press.until, now)}`
      : 'This watch was stopped';
  return { text, blocks: [section(line)] };
}

interface DigestModel {
  watches: readonly WatchSummary[];
  checkedAt: Date;
  /** The channel asked for unmet demand too (`digest on … demand`): its most asked rows. */
  demand?: readonly DemandRow[];
}

const DIGEST_LINES_PER_SECTION = 10;

/** "*12* available", "*−13* available (over-allocated by 13)". */
function digestQty(available: number): string {
  const words = availableWords(available);
  const figure = signedQty(available);
  return `*${figure}*${words.slice(figure.length)}`;
}

/** The daily digest: this channel's watches past their threshold, each with its quantity now. */
export function watchDigest(model: DigestModel): SlackMessage {
  const lines = model.watches.map((w) => {
    const cover = coverPhrase(w.cover);
    return `• ${codeSpan(w.code)} ${where(w.branchName)}: ${digestQty(w.lastAvailable ?? 0)}, ${rule(w)}${cover ? ` · ${cover}` : ''}`;
  });
  const demand = model.demand ?? [];
  const title =
    lines.length === 0
      ? 'Daily digest: unmet demand'
      : `Daily digest: ${plural(model.watches.length, 'watch', 'watches')} past the threshold`;
  const blocks: KnownBlock[] = [header(title)];
  for (let i = 0; i < lines.length; i += DIGEST_LINES_PER_SECTION) {
    blocks.push(section(lines.slice(i, i + DIGEST_LINES_PER_SECTION).join('\n')));
  }
  if (demand.length > 0) {
    const rows = demand.map((row) => `• ${demandLine(row)}`).join('\n');
    blocks.push(
      section(`*Unmet demand, last ${DEMAND_DAYS_SHOWN} days* (most asked first)\n${rows}`),
    );
  }
  const plainDemand = demand.map((row) => `${row.code} ${formatQty(row.count)} No`).join(', ');
  blocks.push(
    context(
      `As of ${slackTime(model.checkedAt)} · \`/stock digest off\` stops this digest, \`/stock watches\` lists every watch`,
    ),
  );
  return {
    text: escapeTruncated(
      `${title}: ${[...model.watches.map((w) => `${w.code} ${signedQty(w.lastAvailable ?? 0)}`), ...(plainDemand ? [`unmet demand ${plainDemand}`] : [])].join(', ')}`,
      LIMITS.fallbackText,
    ),
    blocks: blocks.slice(0, LIMITS.blocks),
  };
}
