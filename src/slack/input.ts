/**
 * Input hygiene for everything a person types or a message carries into the app: Slack's
 * markup, control and invisible characters, odd Unicode and over-long text. Pure: no Bolt, no
 * I/O; the parser and the code extractor build on it.
 */

/**
 * The longest command text we act on, in UTF-16 code units (what JavaScript and zod count).
 *
 * Why 200: an item code or a contact name plus a few words and two filters fits in well under
 * 100 characters, so 200 never gets in the way of a real lookup. It keeps the words a search
 * button carries in its value (Slack caps a value at 2,000 characters, and JSON may double
 * every `"` or `\`) far from that limit, keeps the query readable in a list header (150
 * characters for a header block), and bounds what we log and send upstream.
 */
export const MAX_COMMAND_LENGTH = 200;

/**
 * Below this share of `max`, a cut at the last space would throw away too much of the text,
 * so we cut inside the word instead.
 */
const MIN_WORD_CUT_SHARE = 0.5;

// Whitespace controls (\t \n \v \f \r, and NEL in C1) separate words: they become spaces.
const WHITESPACE_CONTROLS = /[\t\n\v\f\r\u0085]/g;
// Every other C0/C1 control (Cc), every format character (Cf: zero-width space/joiners, soft
// hyphen, BOM, the bidi embeddings, overrides and isolates, LRM/RLM, and the invisible "tag"
// characters used to smuggle text) and lone surrogates (Cs), which would also make
// encodeURIComponent throw when the ERP client builds a path.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/gu;
// JavaScript's \s covers the Unicode spaces (NBSP, en/em spaces, ideographic space, U+2028/9).
const WHITESPACE_RUN = /\s+/g;

interface SanitizedInput {
  text: string;
  /** True when the text was longer than `max` and was cut: the caller shows a notice. */
  cut: boolean;
}

/**
 * Cleans text a person typed: NFC-normalises it; drops control characters (tabs and line
 * breaks become spaces), zero-width, bidi-control and other invisible format characters and
 * lone surrogates; collapses whitespace to single spaces; trims; and cuts text longer than
 * `max` at a word boundary when one is close enough to the limit. Never throws.
 */
export function sanitizeInput(text: string, max: number = MAX_COMMAND_LENGTH): SanitizedInput {
  const clean = String(text)
    .replace(WHITESPACE_CONTROLS, ' ')
    .replace(INVISIBLE, '')
    // After the removals, so that a combining mark separated from its base by a zero-width
    // character still composes.
    .normalize('NFC')
    .replace(WHITESPACE_RUN, ' ')
    .trim();
  if (!(clean.length > max)) return { text: clean, cut: false };
  return { text: cutAtWordBoundary(clean, Math.max(0, Math.floor(max))), cut: true };
}

function cutAtWordBoundary(text: string, max: number): string {
  // `text[max] === ' '` means the word before the limit fits whole.
  const lastSpace = text.lastIndexOf(' ', max);
  if (lastSpace > 0 && lastSpace >= max * MIN_WORD_CUT_SHARE) {
    return text.slice(0, lastSpace).trimEnd();
  }
  return cutToLength(text, max).trimEnd();
}

/**
 * The longest prefix of `text` of at most `max` UTF-16 code units that does not split a
 * surrogate pair or leave a combining mark without the character it belongs to.
 */
export function cutToLength(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, Math.floor(max));
  if (end > 0 && isLowSurrogate(text.charCodeAt(end))) end -= 1;
  // Back off over combining marks so the cut falls between two whole characters; a few at
  // most, so that a run of stray marks still leaves something to cut.
  const floor = Math.max(0, end - MAX_MARK_BACKOFF);
  while (end > floor && /^\p{M}/u.test(text.slice(end))) {
    end -= 1;
    if (end > 0 && isLowSurrogate(text.charCodeAt(end))) end -= 1;
  }
  return text.slice(0, end);
}

const MAX_MARK_BACKOFF = 16;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** What to do with Slack's `<…>` markup. */
interface MarkupOptions {
  /**
   * A link without a label (`<https://x>`): keep its target as text (`'target'`, what the
   * person typed into a command) or drop it (`'drop'`, when mining a message for codes, where
   * a URL's path segments are not the codes people mean).
   */
  bareLinks: 'target' | 'drop';
}

// Slack encodes these three in every text it sends, and a literal `<` or `>` always arrives
// encoded, so any `<…>` in the raw text is markup.
const MARKUP = /<([^<>]*)>/g;
const ENTITY = /&(amp|lt|gt);/g;
const ENTITY_CHARS: Record<string, string> = { amp: '&', lt: '<', gt: '>' };
// A conversation or user id without its sigil: Slack sends private channels as `<C123|>`.
const BARE_SLACK_ID = /^[CDGUWS][A-Z0-9]{2,}$/;

/**
 * Resolves Slack's markup in command or message text (as sent with "Escape channels, users,
 * and links" on): mentions (`<@U1|bob>`), channel links (`<#C1|general>`, `<C1|>`), special
 * and group mentions and dates (`<!here>`, `<!subteam^S1>`, `<!date^…|…>`) and `mailto:`
 * links are dropped (a person, a channel or an address is never an item or contact code);
 * other links become their label, or their target per `options`. Then `&amp;`, `&lt;` and
 * `&gt;` are decoded in one pass (so `&amp;lt;` stays `&lt;`). Everything dropped leaves a
 * space behind, so the words on either side never fuse into one.
 */
export function stripSlackMarkup(
  text: string,
  options: MarkupOptions = { bareLinks: 'target' },
): string {
  return String(text)
    .replace(MARKUP, (_whole, inner: string) => ` ${markupText(inner, options)} `)
    .replace(ENTITY, (_whole, name: string) => ENTITY_CHARS[name] ?? '');
}

function markupText(inner: string, options: MarkupOptions): string {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? '' : inner.slice(bar + 1);
  if (/^[@#!]/.test(target) || BARE_SLACK_ID.test(target)) return '';
  if (/^mailto:/i.test(target)) return '';
  if (label.trim() !== '') return label;
  return options.bareLinks === 'target' ? target : '';
}

/** True when the text holds Slack markup that `stripSlackMarkup` would resolve. */
export function hasSlackMarkup(text: string): boolean {
  return /<[^<>]*>/.test(String(text));
}
