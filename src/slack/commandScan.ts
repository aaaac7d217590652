/**
 * What `/stock` and `/contact` read alike (their grammar is in parser.ts): the text cleaned and
 * cut into words and known `key:value` filters, an exact lookup by id or by one code, and the
 * problems a filter can have, as data (src/views/commandProblems.ts words them).
 */
import type { ErpRef } from '../erp/api.js';
import type { CommandNotice, CommandProblem } from '../views/feedback.js';
import {
  cutToLength,
  hasSlackMarkup,
  MAX_COMMAND_LENGTH,
  sanitizeInput,
  stripSlackMarkup,
} from './input.js';

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
