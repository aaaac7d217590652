/**
 * Finds item codes in a Slack message for the "Look up stock" message shortcut.
 *
 * First the message loses what is not text a person wrote about items: mentions, channel
 * links, special mentions and `mailto:` links are dropped; links keep their label; emoji
 * (`:name:`) and mrkdwn formatting (`*bold*`, `_italic_`, `~strike~`, backticks, `>` quotes)
 * go. Everything removed leaves a space, so every code returned occurs in the message as typed.
 *
 * Then each word is split on characters that never occur in a code and trimmed of punctuation,
 * and a piece counts as an item code when it:
 * - is 2..40 characters of ASCII letters, digits and `-` `/` `.` `_`, starting and ending with
 *   a letter or digit;
 * - has at least one letter and one digit (so not a plain number, and not an ordinary word);
 * - is mostly upper case (more upper- than lower-case letters), as ERP codes are written:
 *   `WIDGET-9`, `AB12/3`, `Bx200X`, but not `mp3`, `v1.2.3` or `iPhone15`;
 * - is not a time (`10AM`, `9.30PM`), a date (`12-JAN-2025`), a quantity with a unit (`40PCS`,
 *   `12KG`), an ordinal (`2ND`), nor part of a URL, domain or e-mail address.
 * Lower-case codes typed in chat are missed unless the caller knows them (`knownCode`, from
 * the catalogue index): a false positive would cost an upstream lookup. Accents are dropped
 * before the split (`WIDGÉT-9` reads as `WIDGET-9`), and the caller may map a piece to the
 * code as the ERP spells it.
 *
 * Anyone can post a message and press the shortcut on it, so the work here is linear in the
 * text: only the first `MAX_MESSAGE_TEXT` characters are read, and every pattern matches each
 * character a bounded number of times (no two quantifiers that can trade characters, no
 * unanchored `…+$`). test/security/linear.test.ts holds them to it.
 */

import { looksLikeItemCode, withoutAccents } from '../words/codeShape.js';
import { stripSlackMarkup } from './input.js';

export { looksLikeItemCode, sameCode } from '../words/codeShape.js';

export const DEFAULT_MAX_CODES = 5;

/**
 * How much of a message is searched for codes, in UTF-16 code units. The answer lists five
 * codes at most, and people quote them near the top; Slack allows 40,000 characters, and
 * reading all of them would only let one message cost more work.
 */
export const MAX_MESSAGE_TEXT = 4000;

// Slack emoji names are lower-case letters, digits, `_`, `-`, `+` and `'`, with at least one
// letter (so `10:30:45` keeps its numbers); skin tones are emoji of their own. The part before
// the first letter holds no letter, so there is one way to match a name and a run without a
// closing colon fails after one pass (with `[a-z0-9…]*[a-z]` it was tried at every split).
const EMOJI = /:[0-9_+'-]*[a-z][a-z0-9_+'-]*:/g;
const FORMATTING = /[*~`]/g;
// A quote marker: `>` (sent as `&gt;`, decoded by stripSlackMarkup) at the start of a line.
const QUOTE_MARKER = /^[ \t]*>+/gm;
const NOT_CODE_CHARACTER = /[^A-Za-z0-9\-/._]+/;
const URL_START = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/i;

interface ExtractOptions {
  /**
   * The known item code a piece stands for when it is not written as codes are (lower case,
   * accents): `widget-9` -> `WIDGET-9`. A lower-case piece it does not know is left out, so an
   * ordinary word costs no lookup. Asked at most `MAX_KNOWN_ASKS` times a message.
   */
  knownCode?: (piece: string) => string | undefined;
  /**
   * The index does not know the whole catalogue yet (a fresh start): a lower-case piece
   * written with a separator, as codes are (`widget-9`), that `knownCode` does not know is
   * offered upper-cased, as codes are spelled; the ERP decides, one getItem each. Default off.
   */
  upperWhenUnknown?: boolean;
}

/** How many pieces of one message may be offered to `knownCode`: each scans the index. */
const MAX_KNOWN_ASKS = 20;

/**
 * Up to `max` distinct item codes from a message's text, in order of appearance; duplicates are
 * found ignoring case and keep the first spelling. Never throws.
 */
export function extractItemCodes(
  messageText: string,
  max: number = DEFAULT_MAX_CODES,
  options: ExtractOptions = {},
): string[] {
  const limit = Number.isFinite(max) ? Math.floor(max) : DEFAULT_MAX_CODES;
  if (typeof messageText !== 'string' || limit <= 0) return [];
  const codes: string[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates(plainText(leadingText(messageText)), options)) {
    const key = candidate.toUpperCase();
    if (seen.has(key)) continue;
    seen.add(key);
    codes.push(candidate);
    if (codes.length >= limit) break;
  }
  return codes;
}

/**
 * The first `MAX_MESSAGE_TEXT` characters, without the word the limit falls in (half a code
 * would be looked up as a code of its own).
 */
function leadingText(messageText: string): string {
  if (messageText.length <= MAX_MESSAGE_TEXT) return messageText;
  let end = MAX_MESSAGE_TEXT;
  while (end > 0 && !isSpace(messageText.charCodeAt(end))) end -= 1;
  return messageText.slice(0, end);
}

function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0;
}

/** The message as words a person wrote: markup resolved, emoji and formatting removed. */
function plainText(messageText: string): string {
  return stripSlackMarkup(messageText, { bareLinks: 'drop' })
    .replace(QUOTE_MARKER, ' ')
    .replace(EMOJI, ' ')
    .replace(FORMATTING, ' ');
}

function* candidates(text: string, options: ExtractOptions): Generator<string> {
  let asks = 0;
  const known = (piece: string): string | undefined => {
    if (!options.knownCode || asks >= MAX_KNOWN_ASKS) return undefined;
    asks += 1;
    return options.knownCode(piece);
  };
  for (const typed of text.split(/\s+/)) {
    // A word holding `@` is an address or a leftover `@name`; a URL's path segments are not
    // the codes people mean, and neither are a domain's labels.
    if (typed.includes('@') || URL_START.test(typed)) continue;
    const word = withoutAccents(typed);
    const accented = word !== typed;
    for (const piece of word.split(NOT_CODE_CHARACTER)) {
      const code = trimToAlphanumeric(piece);
      if (looksLikeItemCode(code)) {
        // An accented code may be how the ERP spells it: the index says which.
        yield (accented ? known(code) : undefined) ?? code;
      } else if (looksLikeItemCode(code.toUpperCase())) {
        const spelled = known(code);
        if (spelled !== undefined) yield spelled;
        else if (options.upperWhenUnknown && /[-/._]/.test(code)) yield code.toUpperCase();
      }
    }
  }
}

/**
 * The piece without the punctuation at its ends (`(WIDGET-9),` -> `WIDGET-9`). A loop, not
 * `/[^A-Za-z0-9]+$/`: that pattern is tried from every character of a long run of `-` and
 * scans to the run's end each time, quadratic in the run.
 */
function trimToAlphanumeric(piece: string): string {
  let start = 0;
  let end = piece.length;
  while (start < end && !isAlphanumeric(piece.charCodeAt(start))) start += 1;
  while (end > start && !isAlphanumeric(piece.charCodeAt(end - 1))) end -= 1;
  return piece.slice(start, end);
}

function isAlphanumeric(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a)
  );
}
