/**
 * The grammar of `/stock` and `/contact` (PRODUCT.md, "Commands"): text in, a typed request or
 * a helpful message out. Pure and total: any string at all gives a result, never an exception.
 *
 *   empty | help | ? | -h | --help        usage help
 *   id:123 | #123                         exact lookup by internal id
 *   TOKEN                                 exact lookup by code (the caller falls back to search)
 *   word word… [filter:value…]            search; filters may appear anywhere
 *
 * Only the known filter keys are filters; any other `x:y` token is a code or a word, kept as
 * typed (the ERP decides about case). Path tricks (`../x`, `%2F`, `?`, `AB#1`) are just
 * characters of a code: the ERP client encodes them.
 */
import type { ContactType, ErpRef } from '../erp/api.js';
import type { ContactQuery, ItemQuery } from '../lookup/types.js';
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

export type StockRequest =
  | { kind: 'help' }
  /** `token`: what to search for on 404 (the code as typed; `''` for ids). */
  | { kind: 'item'; ref: ErpRef; token: string }
  | { kind: 'search'; query: ItemQuery }
  /** `/stock categories`: the categories the catalogue index knows, with ids and counts. */
  | { kind: 'categories' };

export type ContactRequest =
  | { kind: 'help' }
  | { kind: 'contact'; ref: ErpRef; token: string }
  | { kind: 'search'; query: ContactQuery };

export type ParseResult<T> =
  /** `notices`: things the user should know about how we read the text (it was cut, …). */
  | { ok: true; request: T; notices: string[] }
  /** A plain-text message (the views escape it) with an example of the right form. */
  | { ok: false; error: string };

const HELP_WORDS = new Set(['help', '?', '-h', '--help']);
const DIGITS = /^[0-9]+$/;
const FILTER_TOKEN = /^([A-Za-z]+):(.*)$/s;
/** How much of a bad token we quote back in an error. */
const MAX_ECHO = 40;

/** One `key:value` the command knows, under its canonical key. */
interface Filter {
  key: string;
  value: string;
  typed: string;
}

interface Scanned {
  words: string[];
  filters: Filter[];
  notices: string[];
}

type Step<T> = { ok: true; value: T } | { ok: false; error: string };

interface CommandSpec {
  command: '/stock' | '/contact';
  /** Lower-case key or alias → canonical key. `id` is always known. */
  keys: Readonly<Record<string, string>>;
  /** A code people would recognise, for examples. */
  sampleCode: string;
  sampleWord: string;
}

const STOCK: CommandSpec = {
  command: '/stock',
  keys: { id: 'id', category: 'category', cat: 'category', supplier: 'supplier', sup: 'supplier' },
  sampleCode: 'WIDGET-9',
  sampleWord: 'widget',
};

const CONTACT: CommandSpec = {
  command: '/contact',
  keys: { id: 'id', type: 'type' },
  sampleCode: 'ACME01',
  sampleWord: 'acme',
};

const CONTACT_TYPES: Readonly<Record<string, ContactType>> = {
  client: 'client',
  clients: 'client',
  customer: 'client',
  customers: 'client',
  supplier: 'supplier',
  suppliers: 'supplier',
};

export function parseStockCommand(text: string): ParseResult<StockRequest> {
  const scanned = scan(text, STOCK);
  if (!scanned.ok) return scanned;
  if (scanned.value === 'help') return { ok: true, request: { kind: 'help' }, notices: [] };
  const { words, filters, notices } = scanned.value;
  if (filters.length === 0 && words.length === 1 && words[0]?.toLowerCase() === 'categories') {
    return { ok: true, request: { kind: 'categories' }, notices };
  }

  const id = exactId(filters, words, STOCK);
  if (!id.ok) return id;
  if (id.value !== undefined) {
    return { ok: true, request: { kind: 'item', ref: { id: id.value }, token: '' }, notices };
  }
  const category = wholeNumberFilter(filters, 'category', STOCK);
  if (!category.ok) return category;
  const supplier = wholeNumberFilter(filters, 'supplier', STOCK);
  if (!supplier.ok) return supplier;
  const [only] = words;
  if (only !== undefined && words.length === 1 && filters.length === 0) {
    return { ok: true, request: { kind: 'item', ref: { code: only }, token: only }, notices };
  }
  const query: ItemQuery = {
    words,
    ...(category.value === undefined ? {} : { category: category.value }),
    ...(supplier.value === undefined ? {} : { supplier: supplier.value }),
  };
  return { ok: true, request: { kind: 'search', query }, notices };
}

export function parseContactCommand(text: string): ParseResult<ContactRequest> {
  const scanned = scan(text, CONTACT);
  if (!scanned.ok) return scanned;
  if (scanned.value === 'help') return { ok: true, request: { kind: 'help' }, notices: [] };
  const { words, filters, notices } = scanned.value;

  const id = exactId(filters, words, CONTACT);
  if (!id.ok) return id;
  if (id.value !== undefined) {
    return { ok: true, request: { kind: 'contact', ref: { id: id.value }, token: '' }, notices };
  }
  const type = contactTypeFilter(filters);
  if (!type.ok) return type;
  const [only] = words;
  if (only !== undefined && words.length === 1 && filters.length === 0) {
    return { ok: true, request: { kind: 'contact', ref: { code: only }, token: only }, notices };
  }
  const query: ContactQuery = { words, ...(type.value === undefined ? {} : { type: type.value }) };
  return { ok: true, request: { kind: 'search', query }, notices };
}

/** The text that `parseStockCommand` reads back as this search (for headers and the console). */
export function stockQueryText(query: ItemQuery): string {
  const parts = [...query.words];
  if (query.category !== undefined) parts.push(`category:${query.category}`);
  if (query.supplier !== undefined) parts.push(`supplier:${query.supplier}`);
  return parts.join(' ');
}

/** The text that `parseContactCommand` reads back as this search. */
export function contactQueryText(query: ContactQuery): string {
  const parts = [...query.words];
  if (query.type !== undefined) parts.push(`type:${query.type}`);
  return parts.join(' ');
}

/** Cleans the text and splits it into words and known filters; `'help'` for a help request. */
function scan(raw: string, spec: CommandSpec): Step<Scanned | 'help'> {
  const typed = typeof raw === 'string' ? raw : '';
  const { text, cut } = sanitizeInput(stripSlackMarkup(typed), MAX_COMMAND_LENGTH);
  if (text === '') {
    // `/stock @bob` with escaping on: the mention is dropped, and help would look like we
    // ignored it.
    if (hasSlackMarkup(typed)) return { ok: false, error: markupOnlyMessage(spec) };
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
        error: `"#" needs an id number after it, for example ${spec.command} #123.`,
      };
    } else if (token.startsWith('#') && DIGITS.test(token.slice(1))) {
      // Only a leading `#` followed by digits only is an id; `#12x` or `AB#1` are codes.
      filters.push({ key: 'id', value: token.slice(1), typed: token });
    } else {
      words.push(token);
    }
  }
  const notices = cut ? [`Your text was cut to ${MAX_COMMAND_LENGTH} characters.`] : [];
  return { ok: true, value: { words: limitWords(words, notices), filters, notices } };
}

function limitWords(words: string[], notices: string[]): string[] {
  let kept = words;
  if (kept.length > MAX_WORDS) {
    kept = kept.slice(0, MAX_WORDS);
    notices.push(`Only the first ${MAX_WORDS} words were used.`);
  }
  if (kept.some((word) => word.length > MAX_WORD_LENGTH)) {
    kept = kept.map((word) => cutToLength(word, MAX_WORD_LENGTH)).filter((word) => word !== '');
    notices.push(`Words longer than ${MAX_WORD_LENGTH} characters were cut to ${MAX_WORD_LENGTH}.`);
  }
  return kept;
}

/** The one value a filter was given, or an error naming both when it was given twice. */
function singleValue<T>(
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
        error: `${key} is given twice (${quote(found.typed)} and ${quote(filter.typed)}): keep one, for example ${example}.`,
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
  spec: CommandSpec,
): Step<number | undefined> {
  const example = `${spec.command} id:123 (or ${spec.command} #123)`;
  const id = singleValue(filters, 'id', (filter) => wholeNumber(filter, 'An id', example), example);
  if (!id.ok || id.value === undefined) return id;
  if (words.length > 0 || filters.some((filter) => filter.key !== 'id')) {
    return {
      ok: false,
      error: `An id lookup takes nothing else: use ${spec.command} id:${id.value} on its own, or leave the id out to search, for example ${spec.command} ${spec.sampleWord}.`,
    };
  }
  return id;
}

function wholeNumberFilter(
  filters: readonly Filter[],
  key: string,
  spec: CommandSpec,
): Step<number | undefined> {
  const example = `${spec.command} ${spec.sampleWord} ${key}:12`;
  return singleValue(filters, key, (filter) => wholeNumber(filter, `A ${key}`, example), example);
}

function wholeNumber(filter: Filter, what: string, example: string): Step<number> {
  const value = DIGITS.test(filter.value) ? Number(filter.value) : Number.NaN;
  if (Number.isSafeInteger(value)) return { ok: true, value };
  return {
    ok: false,
    error: `${quote(filter.typed)} is not valid: ${what} is a whole number (0 or more), for example ${example}.`,
  };
}

function contactTypeFilter(filters: readonly Filter[]): Step<ContactType | undefined> {
  const example = `${CONTACT.command} ${CONTACT.sampleWord} type:client`;
  return singleValue(
    filters,
    'type',
    (filter): Step<ContactType> => {
      const type = Object.hasOwn(CONTACT_TYPES, filter.value.toLowerCase())
        ? CONTACT_TYPES[filter.value.toLowerCase()]
        : undefined;
      if (type !== undefined) return { ok: true, value: type };
      return {
        ok: false,
        error: `${quote(filter.typed)} is not valid: type is client (or customer) or supplier, for example ${example}.`,
      };
    },
    example,
  );
}

function markupOnlyMessage(spec: CommandSpec): string {
  return `Mentions, channels and e-mail links cannot be looked up: type a code or some words, for example ${spec.command} ${spec.sampleCode}.`;
}

function quote(typed: string): string {
  const short = cutToLength(typed, MAX_ECHO);
  return `"${short}${short.length < typed.length ? '…' : ''}"`;
}
