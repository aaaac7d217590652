/**
 * How words and figures are written on every card: numbers, times and freshness; ERP text
 * escaped into mrkdwn; and the display options (sandbox, what may be shown to a channel) the
 * listeners hand every view. Pure functions of their arguments.
 */
import type { ContextBlock } from '@slack/types';
import type { Freshness } from '../lookup/types.js';
import { context, stripBidiControls, truncate, truncateAtWord } from './blocks.js';
import type { SlackMessage } from './message.js';

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

/**
 * A time for the plain-text fallback: "just now", "5 min ago", "in 3 h", "in 2 days". That
 * text is what notifications and screen readers read, where Slack renders no date token and
 * the reader's time zone is unknown, so any absolute time there would be a fixed zone that is
 * wrong for most readers; a relative one is true for whoever reads it when it arrives.
 */
export function relativeTime(at: Date, now: Date): string {
  const ms = at.getTime() - now.getTime();
  const minutes = Math.round(Math.abs(ms) / 60_000);
  if (minutes < 1) return 'just now';
  const hours = Math.round(minutes / 60);
  const days = Math.round(minutes / 1440);
  const span = minutes < 60 ? `${minutes} min` : hours < 36 ? `${hours} h` : plural(days, 'day');
  return ms < 0 ? `${span} ago` : `in ${span}`;
}

/**
 * "Wed 2 Dec at 08:00 Australia/Perth": a time in the zone a person named (the digest's), so
 * the answer repeats what they asked for. A zone the runtime does not know falls back to UTC.
 */
export function zonedTime(at: Date, zone: string): string {
  let parts: Intl.DateTimeFormatPart[];
  let shown = zone;
  try {
    parts = zonedParts(at, zone);
  } catch {
    parts = zonedParts(at, 'UTC');
    shown = 'UTC';
  }
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  const hour = part('hour') === '24' ? '00' : part('hour');
  return `${part('weekday')} ${part('day')} ${part('month')} at ${hour}:${part('minute')} ${shown}`;
}

function zonedParts(at: Date, zone: string): Intl.DateTimeFormatPart[] {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
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
function shortFreshnessLine(freshness: Freshness, absolute: boolean): string {
  const when = absolute
    ? slackTime(freshness.fetchedAt, '{date_short_pretty} at {time}')
    : slackTime(freshness.fetchedAt, '{ago}');
  if (freshness.stale) return `:warning: *${staleReason(freshness)}*: data from ${when}`;
  return `Fetched ${when}${freshness.fromCache ? ' · from cache' : ''}`;
}

/**
 * A stale answer's first line: the figures below are old, and from when ("as of" a date token
 * each reader sees in their own zone, true however late it is read); "Sandbox data" beside it,
 * since the card then has no footer (`footerUnderLead`): one phone line, not two. Undefined
 * when fresh.
 */
export function staleLead(freshness: Freshness, display: DisplayOptions): string | undefined {
  if (!freshness.stale) return undefined;
  const lead = `:warning: *${staleReason(freshness)}*: figures as of ${slackTime(freshness.fetchedAt)}`;
  return display.sandbox ? `${lead} · ${SANDBOX_SHORT}` : lead;
}

/** The same for the plain-text fallback, relative to `now`: "… figures as of 12 min ago". */
export function staleLeadText(freshness: Freshness, now: Date): string | undefined {
  if (!freshness.stale) return undefined;
  return `${staleReason(freshness)}: figures as of ${relativeTime(freshness.fetchedAt, now)}`;
}

/** A card's footer: none under a stale lead, which already says when (`staleLead`). */
export function footerUnderLead(
  freshness: Freshness,
  display: DisplayOptions,
  shared: boolean,
): ContextBlock | undefined {
  return freshness.stale ? undefined : shortFooter(freshness, display, shared);
}

/** The same, for the plain-text fallback: relative to `now`, when the message is built. */
export function freshnessText(freshness: Freshness, now: Date): string {
  const at = relativeTime(freshness.fetchedAt, now);
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

/**
 * The one way ERP (and user) text gets into Slack mrkdwn.
 *
 * Slack decodes exactly three entities and treats everything between `<` and `>` as markup
 * (`<!channel>`, `<@U123>`, `<https://x|label>`), so escaping `&`, `<` and `>` is what stops
 * data such as `<!channel>` from notifying anyone. `&` goes first, or the entities we produce
 * would be escaped again. Nothing else may be HTML-encoded: Slack would show `&quot;` as is.
 *
 * Styling characters (`*`, `_`, `~`, `` ` ``) have no escape in mrkdwn (Slack documents none):
 * they pass through; codes go into code spans, where styling does not apply.
 */
const escapeMarkup = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function escapeMrkdwn(text: string): string {
  return escapeMarkup(stripBidiControls(text));
}

/**
 * Escapes, then cuts to `max` characters of mrkdwn (never inside an entity). Escaping only
 * lengthens text, so characters past the first `max + 1` can never be shown: they are dropped
 * before escaping, and a long ERP field costs what is shown, not what was sent.
 */
export function escapeTruncated(text: string, max: number): string {
  return truncate(escapeMarkup(stripBidiControls(text).slice(0, max + 1)), max);
}

/**
 * An ERP code as inline code. A backtick inside would end the span early, so it is shown as
 * the look-alike `ˋ` (display only; button values keep the real code).
 */
export function codeSpan(code: string, max = 60): string {
  const shown = escapeTruncated(code.replaceAll('`', 'ˋ').replaceAll('\n', ' '), max);
  return shown.trim() === '' ? '—' : `\`${shown}\``;
}

/** ERP text on one line: newlines would break our line-per-row layouts. */
export function oneLine(text: string, max: number): string {
  return escapeTruncated(text.replace(/\s+/g, ' ').trim(), max);
}

/**
 * The same for prose (descriptions): cut at a word boundary when one is near the limit. As
 * `escapeTruncated`, only what can be shown is escaped.
 */
export function oneLineAtWord(text: string, max: number): string {
  const folded = stripBidiControls(text.replace(/\s+/g, ' ').trim());
  return truncateAtWord(escapeMarkup(folded.slice(0, max + 1)), max);
}

/**
 * An ERP status label as given (the numeric mapping is not shown by the spec), except the one
 * that needs attention, which stands out: `Disabled` for items, `Suspended` for contacts.
 */
export function statusLabel(label: string, alarming: 'Disabled' | 'Suspended', max = 40): string {
  return label === alarming ? `:no_entry: *${alarming}*` : oneLine(label, max);
}

/**
 * What the words on a card depend on besides the data: whether the ERP is the built-in
 * sandbox, and whether cost may be shown to a channel. Listeners pass these through the
 * view models; the views decide what that means for each message.
 */
export interface DisplayOptions {
  /** The app runs on its built-in sandbox ERP: every card and list says so. */
  sandbox?: boolean;
  /** `SHARE_COST=true`: item and component costs show on shared cards too. */
  shareCost?: boolean;
  /** `SHARE_ACCOUNT_TERMS=true`: credit limit, discount, terms and stop credit too. */
  shareAccountTerms?: boolean;
  /**
   * The person the card is drawn for (the asker; on a shared card, the sharer) is a full
   * member of the installing workspace (privacy/access.ts). Unset means no: cost
   * and account terms stay off the card, whatever else allows them.
   */
  internalFigures?: boolean;
}

export const SANDBOX_NOTE =
  ':test_tube: *Sandbox data*: made-up items and contacts, not a real ERP';

/** The footer of every card and list: when the data was fetched, and "Sandbox data". */
export function footer(freshness: Freshness, display: DisplayOptions): ContextBlock {
  return display.sandbox
    ? context(freshnessLine(freshness), SANDBOX_NOTE)
    : context(freshnessLine(freshness));
}

/** The sandbox note where a phone line is short: what "Sandbox data" means is in help. */
const SANDBOX_SHORT = ':test_tube: *Sandbox data*';

/**
 * The one-line footer of a card on a phone: when the data was fetched (relative on a private
 * card, which is read now; absolute on a shared one, which is read later), and "Sandbox data".
 */
export function shortFooter(
  freshness: Freshness,
  display: DisplayOptions,
  shared: boolean,
): ContextBlock {
  const line = shortFreshnessLine(freshness, shared);
  return context(display.sandbox ? `${line} · ${SANDBOX_SHORT}` : line);
}

/**
 * Cost is internal: only for a full member, on their private card, or on a card they share
 * when the workspace allows sharing it.
 */
export function showsCost(shared: boolean, display: DisplayOptions): boolean {
  return display.internalFigures === true && (!shared || display.shareCost === true);
}

/** Account terms are internal, like cost, under their own switch (SHARE_ACCOUNT_TERMS). */
export function showsAccountTerms(shared: boolean, display: DisplayOptions): boolean {
  return display.internalFigures === true && (!shared || display.shareAccountTerms === true);
}

/**
 * The only `<…>` markup the app writes in a fallback itself: a person or a user group it names
 * by id, a channel link, a date token, a reveal answer's `mailto:` and `tel:` links. `<!here>`,
 * `<!channel>`, `<!everyone>` and links are never the app's.
 */
const OWN_MARKUP =
  /^<(?:@[UW][A-Z0-9]{2,40}|#[CGD][A-Z0-9]{2,40}(?:\|[^<>|]*)?|!subteam\^S[A-Z0-9]{2,40}|!date\^\d+\^[^<>|]*\|[^<>|]*|mailto:[^\s<>|]+\|[^<>|]+|tel:\+?[0-9]{7,15}\|[^<>|]+)>$/;
const MARKUP_OR_BRACKET = /<[^<>]*>|[<>]/g;

/**
 * A fallback text as it may leave the app. Slack reads the fallback as mrkdwn: a `<!here>` in
 * it notifies the channel. The views escape what they quote; this is the last stop for what
 * one of them missed: any `<` or `>` that is not the app's own markup is escaped. `&` is left
 * alone, so text already escaped passes unchanged.
 */
export function safeFallback(text: string): string {
  return text.replace(MARKUP_OR_BRACKET, (found) =>
    OWN_MARKUP.test(found) ? found : found.replaceAll('<', '&lt;').replaceAll('>', '&gt;'),
  );
}

/** A message as it is sent: the blocks as drawn, the fallback made safe (`safeFallback`). */
export function outgoing(message: SlackMessage): SlackMessage {
  return { text: safeFallback(message.text), blocks: message.blocks };
}
