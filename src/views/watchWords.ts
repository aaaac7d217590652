/**
 * The words every watch view shares: what a watch is called (its item, where, its rule), how
 * often it is checked, why one is off, and days of cover. The watch views are split by job:
 * `watchAlert.ts` (the alert, its thread, the digest), `watchList.ts` (`/stock watches` and
 * App Home), `watchNotices.ts` (confirmations, refusals, notices), `watchButtons.ts` (buttons
 * and their values), `watchModal.ts` (the Watch… modal).
 */
import { MEMBER_ID_SOURCE } from '../ids/member.js';
import { escapeMrkdwn, formatQty } from './format.js';

/** Days of cover as the watches computed them (src/watches/cover.ts). */
export interface CoverModel {
  days: number;
  windowDays: number;
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
  /** When `lastAvailable` was read from the ERP. */
  checkedAt?: Date | undefined;
  snoozedUntil: Date | undefined;
  /** Only with at least three days of history showing a fall. */
  cover?: CoverModel | undefined;
}

export const where = (branch: string | undefined): string =>
  branch === undefined ? 'company-wide' : `at ${escapeMrkdwn(branch)}`;

/** "WIDGET-9 at Perth" in plain words (accessibility labels, plain text). */
export function watchName(w: { code: string; branchName: string | undefined }): string {
  return w.branchName === undefined ? `${w.code} company-wide` : `${w.code} at ${w.branchName}`;
}

/**
 * A quantity as the ERP's figures give it. Over-allocated (more allocated than on hand) is
 * shown as such, never as 0: "−13 (over-allocated by 13)"; a true minus sign, not a hyphen.
 */
export function availableQty(available: number): string {
  if (available >= 0) return formatQty(available);
  return `${signedQty(available)} (over-allocated by ${formatQty(-available)})`;
}

/** "200 available", "−13 available (over-allocated by 13)". */
export function availableWords(available: number): string {
  if (available >= 0) return `${formatQty(available)} available`;
  return `${signedQty(available)} available (over-allocated by ${formatQty(-available)})`;
}

/** "−13" with a true minus sign (a hyphen reads as a dash in a sentence). */
export function signedQty(value: number): string {
  return value < 0 ? `−${formatQty(-value)}` : formatQty(value);
}

export function rule(w: { direction: 'below' | 'above'; threshold: number }): string {
  if (w.direction === 'above' && w.threshold <= 0) return 'back in stock';
  return w.direction === 'below'
    ? `below ${formatQty(w.threshold)}`
    : `${formatQty(w.threshold)} or more`;
}

/** The other side of the rule, for a return: "back to 20 or more", "out of stock again". */
export function ruleReturned(w: { direction: 'below' | 'above'; threshold: number }): string {
  if (w.direction === 'above' && w.threshold <= 0) return 'out of stock again';
  return w.direction === 'below'
    ? `back to ${formatQty(w.threshold)} or more`
    : `back below ${formatQty(w.threshold)}`;
}

export function interval(seconds: number): string {
  return seconds < 90
    ? `every ${Math.round(seconds)} s`
    : `about every ${Math.round(seconds / 60)} min`;
}

/** "about 5 days of cover at the last 12 days' rate"; nothing without a figure. */
export function coverPhrase(cover: CoverModel | undefined): string | undefined {
  if (cover === undefined) return undefined;
  const days =
    cover.days < 1
      ? 'less than a day'
      : `about ${formatQty(Math.round(cover.days))} ${Math.round(cover.days) === 1 ? 'day' : 'days'}`;
  return `${days} of cover at the last ${formatQty(cover.windowDays)} days' rate`;
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
  access_revoked:
    'the access lists (STOCK_ALLOWED_USERS, STOCK_ALLOWED_CHANNELS) no longer allow it',
};

export function offReason(reason: string | undefined): string {
  return (
    (reason !== undefined && Object.hasOwn(OFF_REASONS, reason)
      ? OFF_REASONS[reason]
      : undefined) ?? 'it could no longer post'
  );
}

const CHANNEL_ID = /^[CGD][A-Z0-9]{2,30}$/;

/** A channel mention Slack renders as a link; anything that is not a channel id, no markup. */
export function channelLink(channelId: string): string {
  return CHANNEL_ID.test(channelId) ? `<#${channelId}>` : 'a channel';
}

const MENTION = new RegExp(`^<(?:@${MEMBER_ID_SOURCE}|!subteam\\^S[A-Z0-9]{2,30})>$`);

/** The stored `notify` tokens that are mentions (anything else never reaches a message). */
export function mentionsOf(notify: string | undefined): string[] {
  return (notify ?? '').split(' ').filter((token) => MENTION.test(token));
}
