/**
 * Input hygiene for everything a person types or a message carries into the app: Slack's
 * markup, control and invisible characters, odd Unicode and over-long text. Pure: no Bolt, no
 * I/O; the parser and the code extractor build on it. Below, what `/stock` and `/contact`
 * read alike: the cleaned text cut into words and `key:value` filters.
 */
import type { ErpRef } from '../erp/schemas.js';
import type { CommandNotice, CommandProblem } from '../views/feedback.js';

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
  /**
   * `'keep'`: leave `&amp;`, `&lt;` and `&gt;` encoded, for a reader that decodes them itself
   * (the sentence reader does): decoded twice, `&amp;lt;!here&amp;gt;` would become `<!here>`.
   */
  entities?: 'decode' | 'keep';
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
  const stripped = String(text).replace(
    MARKUP,
    (_whole, inner: string) => ` ${markupText(inner, options)} `,
  );
  if (options.entities === 'keep') return stripped;
  return stripped.replace(ENTITY, (_whole, name: string) => ENTITY_CHARS[name] ?? '');
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

// What `/stock` and `/contact` read alike (their grammar is in parser.ts): the text cleaned and
// cut into words and known `key:value` filters, an exact lookup by id or by one code, and the
// problems a filter can have, as data (src/views/feedback.ts words them).

/** Button values carry the words (`src/views/actions.ts`): at most 20 of 100 characters. */
export const MAX_WORDS = 20;
export const MAX_WORD_LENGTH = 100;

export type ParseResult<T> =
  /** `notices`: things the user should know about how we read the text (it was cut, …). */
  { ok: true; request: T; notices: CommandNotice[] } | { ok: false; error: CommandProblem };

const HELP_WORDS = new Set(['help', '?', '-h', '--help']);
const DIGITS = /^[0-9]+$/;
const FILTER_TOKEN = /^([A-Za-z]+):(.*)$/s;
/** How much of a bad token we quote back in an error. */
const MAX_ECHO = 40;

/** One `key:value` the command knows, under its canonical key. */
export interface Filter {
  key: string;
  value: string;
  typed: string;
}

interface Scanned {
  words: string[];
  filters: Filter[];
  notices: CommandNotice[];
}

export type Step<T> = { ok: true; value: T } | { ok: false; error: CommandProblem };

export interface CommandSpec<K extends string, Q> {
  command: '/stock' | '/contact';
  /** The request kind of an exact lookup. */
  record: K;
  /** Lower-case key or alias → canonical key. `id` is always known. */
  keys: Readonly<Record<string, string>>;
  /** A code people would recognise, for examples. */
  sampleCode: string;
  sampleWord: string;
  /** The search the words and filters ask for (its filters checked here). */
  query(words: string[], filters: readonly Filter[]): Step<Q>;
}

type LookupRequest<K extends string, Q> =
  | { kind: 'help' }
  | { kind: K; ref: ErpRef; token: string }
  | { kind: 'search'; query: Q };

/** help, an exact lookup by id or by one code, or a search (with the command's filters). */
export function parseLookup<K extends string, Q>(
  text: string,
  spec: CommandSpec<K, Q>,
): ParseResult<LookupRequest<K, Q>> {
  const scanned = scan(text, spec);
  if (!scanned.ok) return scanned;
  if (scanned.value === 'help') return { ok: true, request: { kind: 'help' }, notices: [] };
  const { words, filters, notices } = scanned.value;

  const id = exactId(filters, words, spec);
  if (!id.ok) return id;
  if (id.value !== undefined) {
    return { ok: true, request: { kind: spec.record, ref: { id: id.value }, token: '' }, notices };
  }
  const query = spec.query(words, filters);
  if (!query.ok) return query;
  const [only] = words;
  if (only !== undefined && words.length === 1 && filters.length === 0) {
    return { ok: true, request: { kind: spec.record, ref: { code: only }, token: only }, notices };
  }
  return { ok: true, request: { kind: 'search', query: query.value }, notices };
}

/** Cleans the text and splits it into words and known filters; `'help'` for a help request. */
function scan<K extends string, Q>(raw: string, spec: CommandSpec<K, Q>): Step<Scanned | 'help'> {
  const typed = typeof raw === 'string' ? raw : '';
  const { text, cut } = sanitizeInput(stripSlackMarkup(typed), MAX_COMMAND_LENGTH);
  if (text === '') {
    // `/stock @bob` with escaping on: the mention is dropped, and help would look like we
    // ignored it.
    if (hasSlackMarkup(typed))
      return {
        ok: false,
        error: {
          kind: 'markup_only',
          command: spec.command,
          sampleCode: spec.sampleCode,
        },
      };
    return { ok: true, value: 'help' };
  }
  const tokens = text.split(' ');
  if (tokens.length === 1 && HELP_WORDS.has(text.toLowerCase())) return { ok: true, value: 'help' };

  const words: string[] = [];
  const filters: Filter[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] ?? '';
    const filter = FILTER_TOKEN.exec(token);
    const key = filter?.[1] === undefined ? undefined : spec.keys[filter[1].toLowerCase()];
    if (filter && key !== undefined) {
      let value = filter[2] ?? '';
      // `category: 12`: people put a space after the colon.
      if (value === '' && i + 1 < tokens.length) {
        i += 1;
        value = tokens[i] ?? '';
      }
      filters.push({ key, value, typed: value === '' ? token : `${filter[1]}:${value}` });
    } else if (token === '#') {
      return {
        ok: false,
        error: { kind: 'hash_without_id', command: spec.command },
      };
    } else if (token.startsWith('#') && DIGITS.test(token.slice(1))) {
      // Only a leading `#` followed by digits only is an id; `#12x` or `AB#1` are codes.
      filters.push({ key: 'id', value: token.slice(1), typed: token });
    } else {
      words.push(token);
    }
  }
  const notices = cut ? [{ kind: 'text_cut' as const, maxLength: MAX_COMMAND_LENGTH }] : [];
  return { ok: true, value: { words: limitWords(words, notices), filters, notices } };
}

function limitWords(words: string[], notices: CommandNotice[]): string[] {
  let kept = words;
  if (kept.length > MAX_WORDS) {
    kept = kept.slice(0, MAX_WORDS);
    notices.push({ kind: 'words_limited', maxWords: MAX_WORDS });
  }
  if (kept.some((word) => word.length > MAX_WORD_LENGTH)) {
    kept = kept.map((word) => cutToLength(word, MAX_WORD_LENGTH)).filter((word) => word !== '');
    notices.push({ kind: 'words_cut', maxWordLength: MAX_WORD_LENGTH });
  }
  return kept;
}

/** The one value a filter was given, or an error naming both when it was given twice. */
export function singleValue<T>(
  filters: readonly Filter[],
  key: string,
  read: (filter: Filter) => Step<T>,
  example: string,
): Step<T | undefined> {
  let found: { value: T; typed: string } | undefined;
  for (const filter of filters) {
    if (filter.key !== key) continue;
    const value = read(filter);
    if (!value.ok) return value;
    if (found !== undefined && found.value !== value.value) {
      return {
        ok: false,
        error: {
          kind: 'given_twice',
          key,
          first: quote(found.typed),
          second: quote(filter.typed),
          example,
        },
      };
    }
    found ??= { value: value.value, typed: filter.typed };
  }
  return { ok: true, value: found?.value };
}

/** `id:N` or `#N`: a safe non-negative integer, and nothing else on the line. */
function exactId(
  filters: readonly Filter[],
  words: readonly string[],
  spec: CommandSpec<string, unknown>,
): Step<number | undefined> {
  const example = `${spec.command} id:123 (or ${spec.command} #123)`;
  const id = singleValue(filters, 'id', (filter) => wholeNumber(filter, 'An id', example), example);
  if (!id.ok || id.value === undefined) return id;
  if (words.length > 0 || filters.some((filter) => filter.key !== 'id')) {
    return {
      ok: false,
      error: {
        kind: 'id_not_alone',
        command: spec.command,
        id: id.value,
        sampleWord: spec.sampleWord,
      },
    };
  }
  return id;
}

export function wholeNumberFilter(
  filters: readonly Filter[],
  key: string,
  spec: CommandSpec<string, unknown>,
): Step<number | undefined> {
  const example = `${spec.command} ${spec.sampleWord} ${key}:12`;
  return singleValue(filters, key, (filter) => wholeNumber(filter, `A ${key}`, example), example);
}

function wholeNumber(filter: Filter, what: string, example: string): Step<number> {
  const value = DIGITS.test(filter.value) ? Number(filter.value) : Number.NaN;
  if (Number.isSafeInteger(value)) return { ok: true, value };
  return {
    ok: false,
    error: {
      kind: 'not_whole_number',
      typed: quote(filter.typed),
      what,
      example,
    },
  };
}

export function quote(typed: string): string {
  const short = cutToLength(typed, MAX_ECHO);
  return `"${short}${short.length < typed.length ? '…' : ''}"`;
}
