/**
 * Numbers, times and freshness as the cards show them. Pure functions of their arguments.
 */
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

/** "23 Nov 2026 at 10:42 UTC": absolute, so it stays true however late it is read. */
export function utcTime(at: Date): string {
  const day = `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()] ?? ''} ${at.getUTCFullYear()}`;
  return `${day} at ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())} UTC`;
}

/**
 * Slack's date token: each reader sees the date and time in their own time zone, and
 * relative words ("today", "3 minutes ago") are worked out by Slack when the message is
 * read, never frozen when it was built. The fallback (clients that cannot render the token,
 * notifications) is the absolute time in UTC.
 */
export function slackTime(at: Date, format = '{date_short_pretty} at {time}'): string {
  const unix = Math.floor(at.getTime() / 1000);
  return `<!date^${unix}^${format}|${utcTime(at)}>`;
}

/** "today at 10:42 (3 minutes ago)", as each reader sees it when they read it. */
export function slackTimeAgo(at: Date): string {
  return slackTime(at, '{date_short_pretty} at {time} ({ago})');
}

/** Why a stale answer was shown: the ERP failing, or only our own budget being busy. */
function staleReason(freshness: Freshness): string {
  return freshness.staleBecause === 'busy' ? 'Lots of lookups right now' : 'ERP unreachable';
}

/**
 * The card footer: when the data was fetched from the ERP (absolute, so a shared card read
 * next week still says when), and whether it came from cache or is stale.
 */
export function freshnessLine(freshness: Freshness): string {
  const when = slackTimeAgo(freshness.fetchedAt);
  if (freshness.stale) return `:warning: *${staleReason(freshness)}*; showing data fetched ${when}`;
  return `Fetched from the ERP ${when}${freshness.fromCache ? ' · from cache' : ''}`;
}

/**
 * The footer of a card on a phone, in one line: "Fetched 3 minutes ago · from cache". A shared
 * card says the date and time instead, so that it stays true however late it is read.
 */
export function shortFreshnessLine(freshness: Freshness, absolute: boolean): string {
  const when = absolute
    ? slackTime(freshness.fetchedAt, '{date_short_pretty} at {time}')
    : slackTime(freshness.fetchedAt, '{ago}');
  if (freshness.stale) return `:warning: *${staleReason(freshness)}*: data from ${when}`;
  return `Fetched ${when}${freshness.fromCache ? ' · from cache' : ''}`;
}

/** The same, for the plain-text fallback. */
export function freshnessText(freshness: Freshness): string {
  const at = utcTime(freshness.fetchedAt);
  return freshness.stale
    ? `${staleReason(freshness)}; showing data fetched ${at}`
    : `fetched ${at}`;
}

/** "about 20 s", "about 2 min": for waits the user is told about. */
export function aboutSeconds(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 90) return `about ${seconds} s`;
  return `about ${Math.round(seconds / 60)} min`;
}
