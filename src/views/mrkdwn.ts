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
import { truncate, truncateAtWord } from './limits.js';

/**
 * Bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069). In ERP text they would
 * reorder everything after them on the line, our own words and figures included (the sandbox's
 * ODD-UNICODE description turned "639 available" round in the notification). Marks (LRM, RLM)
 * only nudge their neighbours and stay; right-to-left scripts need no controls to show.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

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

/** The same for prose (descriptions): cut at a word boundary when one is near the limit. */
export function oneLineAtWord(text: string, max: number): string {
  return truncateAtWord(escapeMrkdwn(text.replace(/\s+/g, ' ').trim()), max);
}

/**
 * An ERP status label as given (the numeric mapping is not shown by the spec), except the one
 * that needs attention, which stands out: `Disabled` for items, `Suspended` for contacts.
 */
export function statusLabel(label: string, alarming: 'Disabled' | 'Suspended', max = 40): string {
  return label === alarming ? `:no_entry: *${alarming}*` : oneLine(label, max);
}
