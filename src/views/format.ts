/**
 * Numbers, times and freshness as the cards show them. Pure: every function takes `now`.
 */
// One file each, not the package index: the index loads all of date-fns (about 860 modules).
import { differenceInSeconds } from 'date-fns/differenceInSeconds';
import { formatDistanceStrict } from 'date-fns/formatDistanceStrict';
import type { Freshness } from '../lookup/types.js';

const quantity = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
const money = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});
/** "As the ERP gives it": every decimal kept, only digit grouping added. */
const exact = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });

/** Stock figures and BOM quantities: `1,234`, `2.5`, `0.125`. */
export function formatQty(value: number): string {
  return quantity.format(value);
}

/** Costs and prices (the ERP does not say which currency): `12.50`, `0.0125`. */
export function formatMoney(value: number): string {
  return money.format(value);
}

export function formatExact(value: number): string {
  return exact.format(value);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatQty(count)} ${count === 1 ? one : many}`;
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

/**
 * Slack's date token: each reader sees the time in their own time zone; the fallback (shown
 * by clients that cannot render the token, and in notifications) is UTC.
 */
export function slackTime(at: Date, now: Date): string {
  const unix = Math.floor(at.getTime() / 1000);
  const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`;
  const sameDay = Math.abs(differenceInSeconds(now, at)) < 12 * 3600;
  if (sameDay) return `<!date^${unix}^{time}|${time} UTC>`;
  const day = `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()] ?? ''}`;
  return `<!date^${unix}^{date_short} {time}|${day} ${time} UTC>`;
}

/** "just now", "45 s ago", "3 min ago", "2 hours ago". */
export function ago(at: Date, now: Date): string {
  if (differenceInSeconds(now, at) < 10) return 'just now';
  const distance = formatDistanceStrict(at, now)
    .replace(/ minutes?$/, ' min')
    .replace(/ seconds?$/, ' s');
  return `${distance} ago`;
}

/** The card footer: when the data was fetched, and whether it came from cache or is stale. */
export function freshnessLine(freshness: Freshness, now: Date): string {
  const when = `${slackTime(freshness.fetchedAt, now)}, ${ago(freshness.fetchedAt, now)}`;
  if (freshness.stale) return `:warning: *ERP unreachable*; showing data from ${when}`;
  return `as of ${when}${freshness.fromCache ? ' · from cache' : ''}`;
}

/** The same, for the plain-text fallback. */
export function freshnessText(freshness: Freshness, now: Date): string {
  const at = freshness.fetchedAt;
  const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())} UTC`;
  return freshness.stale
    ? `ERP unreachable; showing data from ${time}, ${ago(at, now)}`
    : `as of ${time}, ${ago(at, now)}`;
}

/** "about 20 s", "about 2 min": for waits the user is told about. */
export function aboutSeconds(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `about ${seconds} s`;
  return `about ${Math.round(seconds / 60)} min`;
}
