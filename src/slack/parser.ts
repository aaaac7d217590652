/**
 * The grammar of `/stock` and `/contact` (README, "What it does"): text in, a typed request or
 * a helpful message out. Pure and total: any string at all gives a result, never an exception.
 *
 *   empty | help | ? | -h | --help        usage help
 *   id:123 | #123                         exact lookup by internal id
 *   TOKEN                                 exact lookup by code (the caller falls back to search)
 *   CODE [N] [branch words]               a question about one item (any order after the code)
 *   CODE, CODE, …                         several codes (the message shortcut's answer)
 *   categories | suppliers                what the catalogue index knows
 *   watch CODE below|above N [at BRANCH] [notify @person|@group…]
 *                                         watches (with `watches`, `unwatch CODE [at BRANCH]`)
 *   digest [on [HH:MM [zone]] | off]      the channel's daily digest of its watches
 *   CODE build N [at BRANCH]              can N be built from the first level of its BOM?
 *   demand                                the No answers of the last seven days, by item
 *   word word… [filter:value…]            search; filters may appear anywhere
 *
 * The parser never decides that a code exists: a question about an item is a candidate the
 * handler confirms with one getItem, running `fallback` (the search as the words read) on 404.
 * It returns what went wrong as data; src/views/feedback.ts words it.
 *
 * Only the known filter keys are filters; any other `x:y` token is a code or a word, kept as
 * typed (the ERP decides about case). Path tricks (`../x`, `%2F`, `?`, `AB#1`) are just
 * characters of a code: the ERP client encodes them.
 */
import type { ContactType, ErpRef } from '../erp/schemas.js';
import type { ContactQuery, ItemQuery } from '../lookup/types.js';
import type { CodesQuestion, WatchRequest } from '../words/reading.js';
import { type BuildRequest, readBuild } from './buildGrammar.js';
import {
  asCodesAreWritten,
  commaSeparatedCodes,
  distinctCodes,
  quantityOf,
  UNIT_WORD,
} from './codesGrammar.js';
import {
  type CommandSpec,
  type Filter,
  type ParseResult,
  parseLookup,
  quote,
  type Step,
  singleValue,
  wholeNumberFilter,
} from './input.js';
import { readDigest, splitNotify } from './watchGrammar.js';

/** `/stock CODE [N] [branch words]`: a question about one item, if `code` exists. */
export interface ItemQuestion {
  kind: 'question';
  code: string;
  /** The number asked for (`50`, `50x`, `50 pcs`, `2.5` metres); absent: no quantity. */
  quantity?: number;
  /** Words that should name a branch of the item (matched by src/rules/stock.ts). */
  branchWords: string[];
  /** The search the text reads as when `code` is not an item (exactly as before). */
  fallback: ItemQuery;
}

export type StockRequest =
  | { kind: 'help' }
  /** `token`: what to search for on 404 (the code as typed; `''` for ids). */
  | { kind: 'item'; ref: ErpRef; token: string }
  | ItemQuestion
  /** `supplierName`: `supplier:WORD`, for the handler to resolve to an id from the index. */
  | { kind: 'search'; query: ItemQuery; supplierName?: string }
  /**
   * `A, B, C`: distinct codes in the order typed (the message shortcut's answer); `A 20, B 5
   * at brisbane`: each with its quantity, at one branch, a verdict line each.
   */
  | { kind: 'codes'; codes: string[]; question?: CodesQuestion }
  /** `/stock categories`: the categories the catalogue index knows, with ids and counts. */
  | { kind: 'categories' }
  /** `/stock suppliers`: the suppliers the catalogue index learned, with their ids. */
  | { kind: 'suppliers' }
  | (WatchRequest & {
      /** `notify`: Slack's escaped mentions, as bare ids (`<@U1>`, `<!subteam^S1>`). */
      notify?: string[];
    })
  | { kind: 'watches' }
  | BuildRequest
  /** `/stock demand`: the No answers of the last seven days, counted by item and branch. */
  | { kind: 'demand' }
  | { kind: 'unwatch'; code: string; branchWords: string[] }
  | { kind: 'digest'; action: 'on'; minuteOfDay: number; zone: string; demand: boolean }
  | { kind: 'digest'; action: 'off' | 'status' };

export type ContactRequest =
  | { kind: 'help' }
  | { kind: 'contact'; ref: ErpRef; token: string }
  /**
   * `/contact CODE words`: that contact's people matching every word, if `code` exists;
   * `fallback` is the search the text reads as otherwise.
   */
  | { kind: 'people'; code: string; peopleWords: string[]; fallback: ContactQuery }
  | { kind: 'search'; query: ContactQuery };

/** What `/stock` and `/contact` look up: every request but help. */
export type StockLookup = Exclude<StockRequest, { kind: 'help' }>;
export type ContactLookup = Exclude<ContactRequest, { kind: 'help' }>;

const CONTACT_TYPES: Readonly<Record<string, ContactType>> = {
  client: 'client',
  clients: 'client',
  customer: 'client',
  customers: 'client',
  supplier: 'supplier',
  suppliers: 'supplier',
};

const STOCK: CommandSpec<'item', StockSearch> = {
  command: '/stock',
  record: 'item',
  keys: { id: 'id', category: 'category', cat: 'category', supplier: 'supplier', sup: 'supplier' },
  sampleCode: 'WIDGET-9',
  sampleWord: 'widget',
  query: (words, filters) => {
    const category = wholeNumberFilter(filters, 'category', STOCK);
    if (!category.ok) return category;
    // `supplier:acme`: a name the handler resolves from the index; digits are an id.
    const named = filters.filter((f) => f.key === 'supplier' && /^\p{L}/u.test(f.value));
    const numbered = filters.filter((f) => !named.includes(f));
    const supplier = wholeNumberFilter(numbered, 'supplier', STOCK);
    if (!supplier.ok) return supplier;
    const [first, second] = named;
    if (second !== undefined || (first !== undefined && supplier.value !== undefined)) {
      const other = second ?? numbered.find((f) => f.key === 'supplier');
      return {
        ok: false,
        error: {
          kind: 'given_twice',
          key: 'supplier',
          first: quote(first?.typed ?? ''),
          second: quote(other?.typed ?? ''),
          example: `${STOCK.command} ${STOCK.sampleWord} supplier:12`,
        },
      };
    }
    return {
      ok: true,
      value: {
        words,
        ...(category.value === undefined ? {} : { category: category.value }),
        ...(supplier.value === undefined ? {} : { supplier: supplier.value }),
        ...(first === undefined ? {} : { supplierName: first.value }),
      },
    };
  },
};

const CONTACT: CommandSpec<'contact', ContactQuery> = {
  command: '/contact',
  record: 'contact',
  keys: { id: 'id', type: 'type' },
  sampleCode: 'ACME01',
  sampleWord: 'acme',
  query: (words, filters) => {
    const type = contactTypeFilter(filters);
    if (!type.ok) return type;
    return {
      ok: true,
      value: { words, ...(type.value === undefined ? {} : { type: type.value }) },
    };
  },
};

/** A stock search as read: the ERP's query, and a supplier name still to resolve. */
type StockSearch = ItemQuery & { supplierName?: string };

export function parseStockCommand(typed: string): ParseResult<StockRequest> {
  const text = typeof typed === 'string' ? asCodesAreWritten(typed) : '';
  // `digest …` and `watch … notify @someone` are read from the raw text: they need Slack's
  // escaped entities, which the words lose. Any other text is words from the start.
  const verb = /^\s*(\S+)/.exec(text)?.[1]?.toLowerCase();
  const digest = verb === 'digest' ? readDigest(text) : undefined;
  if (digest !== undefined) {
    return digest.ok
      ? { ok: true, request: { kind: 'digest', ...digest.value }, notices: [] }
      : {
          ok: false,
          error: { kind: 'digest_usage', problem: digest.problem, typed: digest.typed },
        };
  }
  if (verb !== 'watch') return parseStockWords(text);
  const { text: rest, notify } = splitNotify(text);
  if (notify !== undefined && !notify.ok) {
    return {
      ok: false,
      error: { kind: 'notify_refused', problem: notify.problem, typed: notify.typed },
    };
  }
  const parsed = parseStockWords(rest);
  if (notify === undefined || !parsed.ok || parsed.request.kind !== 'watch') return parsed;
  return { ...parsed, request: { ...parsed.request, notify: notify.mentions } };
}

function parseStockWords(text: string): ParseResult<StockRequest> {
  const parsed = parseLookup(text, STOCK);
  if (!parsed.ok) return parsed;
  const { request, notices } = parsed;
  if (request.kind === 'help') return { ok: true, request, notices };
  if (request.kind === 'item') {
    const word = request.token.toLowerCase();
    // `/stock categories`, `/stock suppliers`, `/stock watches`: lists, not item codes.
    if (word === 'categories' || word === 'suppliers' || word === 'watches' || word === 'demand') {
      return { ok: true, request: { kind: word }, notices };
    }
    if (word === 'unwatch') return { ok: false, error: { kind: 'unwatch_code_missing' } };
    return { ok: true, request, notices };
  }
  const { supplierName, ...query } = request.query;
  const hasFilters =
    query.category !== undefined || query.supplier !== undefined || supplierName !== undefined;
  if (!hasFilters) {
    const read = readStockWords(query.words, query);
    if (read) return read.ok ? { ok: true, request: read.value, notices } : read;
  }
  return {
    ok: true,
    request: { kind: 'search', query, ...(supplierName === undefined ? {} : { supplierName }) },
    notices,
  };
}

export function parseContactCommand(text: string): ParseResult<ContactRequest> {
  const parsed = parseLookup(text, CONTACT);
  if (!parsed.ok || parsed.request.kind !== 'search') return parsed;
  const { query } = parsed.request;
  const [code, ...rest] = query.words;
  // `/contact ACME01 accounts`: the people of ACME01 who match, if ACME01 is a contact.
  if (code !== undefined && rest.length > 0 && query.type === undefined && looksLikeCode(code)) {
    return {
      ok: true,
      request: { kind: 'people', code, peopleWords: rest, fallback: query },
      notices: parsed.notices,
    };
  }
  return parsed;
}

/**
 * A code is worth one getItem before searching when it carries a digit, a separator or
 * capitals as typed (`WIDGET-9`, `ACME01`, `BOLTS`); `blue widget` goes straight to the search,
 * so a plain multi-word search never spends a getItem.
 */
function looksLikeCode(word: string): boolean {
  return /[\p{N}\-_./]/u.test(word) || (/\p{Lu}/u.test(word) && !/\p{Ll}/u.test(word));
}

/**
 * The forms of `/stock` that several plain words can take besides a search: several codes,
 * a watch, an unwatch, or a question about one item. `undefined`: they are a search.
 */
function readStockWords(
  words: readonly string[],
  fallback: ItemQuery,
): Step<StockRequest> | undefined {
  const codes = commaSeparatedCodes(words);
  if (codes) return { ok: true, value: { kind: 'codes', ...codes } };
  const [first, code, ...rest] = words;
  if (first === undefined || code === undefined) return undefined;
  const verb = first.toLowerCase();
  if (verb === 'watch') return readWatch(code, rest);
  if (verb === 'unwatch')
    return { ok: true, value: { kind: 'unwatch', code, branchWords: atBranch(rest) } };
  const build = code.toLowerCase() === 'build' ? readBuild(first, rest, buildWords) : undefined;
  if (build) return build;
  return readQuestion(first, [code, ...rest], fallback);
}

/** `watch CODE below|above N [at] [branch words]`; without a direction it is a search. */
function readWatch(code: string, rest: readonly string[]): Step<StockRequest> | undefined {
  const [direction, amount, ...branch] = rest;
  const lower = direction?.toLowerCase();
  if (lower !== 'below' && lower !== 'above') return undefined;
  const threshold = amount === undefined || !/^[0-9]+$/.test(amount) ? undefined : Number(amount);
  if (threshold === undefined || !Number.isSafeInteger(threshold)) {
    return { ok: false, error: { kind: 'watch_threshold', code, direction: lower } };
  }
  const branchWords = atBranch(branch);
  if (branch.length > 0 && branchWords.length === 0) {
    return { ok: false, error: { kind: 'watch_branch_missing', code } };
  }
  return { ok: true, value: { kind: 'watch', code, direction: lower, threshold, branchWords } };
}

/** A build check's words after its quantity: the branch, as in a question. */
const buildWords = {
  quantityOf,
  branchWords: (words: readonly string[]) =>
    atBranch(words).filter((w) => !FILLER_WORDS.has(w.toLowerCase())),
};

/** Branch words after an optional `at` (or `in`, `from`: `below 10 in sydney`). */
function atBranch(words: readonly string[]): string[] {
  const first = words[0]?.toLowerCase();
  return first === 'at' || first === 'in' || first === 'from' ? words.slice(1) : [...words];
}

/**
 * Words after a code that ask nothing of a branch (`/stock WIDGET-9 price`, `… in perth`): left
 * out, so they neither name a branch nor turn a branch answer into a company-wide one.
 */
const FILLER_WORDS = new Set([
  'at',
  'in',
  'from',
  'for',
  'of',
  'the',
  'price',
  'cost',
  'stock',
  'available',
  'qty',
  'quantity',
  'please',
]);

/** A second item code (`WIDGET-90`): letters and digits together, and not a quantity. */
const codeShaped = (word: string) =>
  CODE_CHARS.test(word) &&
  /\p{L}/u.test(word) &&
  /\p{N}/u.test(word) &&
  quantityOf(word) === undefined;
const CODE_CHARS = /^[\p{L}\p{N}][\p{L}\p{N}._/-]*$/u;

/** `-5`, `-5pcs`: a negative quantity, which is a usage problem, never a question. */
const NEGATIVE = /^-[0-9]+(?:x|pcs?|units?)?$/i;

/**
 * `CODE [N] [branch words]` in any order after the code, when CODE may be a code. A quantity
 * is a whole number from 1; a second code (`WIDGET-9 WIDGET-90`) makes it several codes.
 */
function readQuestion(
  code: string,
  rest: readonly string[],
  fallback: ItemQuery,
): Step<StockRequest> | undefined {
  let quantity: { value: number; typed: string } | undefined;
  const branchWords: string[] = [];
  const otherCodes: string[] = [];
  for (let i = 0; i < rest.length; i += 1) {
    const word = rest[i] ?? '';
    const value = quantityOf(word);
    if (value === undefined) {
      // `50 pcs`, `50 x`: the unit belongs to the number before it.
      const previous = rest[i - 1];
      const unit =
        UNIT_WORD.test(word) && previous !== undefined && quantityOf(previous) !== undefined;
      if (NEGATIVE.test(word) && looksLikeCode(code)) {
        return { ok: false, error: { kind: 'quantity_not_positive', typed: quote(word), code } };
      }
      if (codeShaped(word) && looksLikeCode(code)) otherCodes.push(word);
      else if (!unit && !FILLER_WORDS.has(word.toLowerCase())) branchWords.push(word);
      continue;
    }
    if (value === 0) {
      return { ok: false, error: { kind: 'quantity_not_positive', typed: quote(word), code } };
    }
    if (quantity !== undefined && quantity.value !== value) {
      // `can we do 20 FST-M8-25 and 5 WIDGET-9 …`: no code first, so a sentence, not a typo.
      if (!looksLikeCode(code)) return undefined;
      return {
        ok: false,
        error: {
          kind: 'quantity_twice',
          first: quote(quantity.typed),
          second: quote(word),
          code,
        },
      };
    }
    quantity ??= { value, typed: word };
  }
  if (quantity === undefined && !looksLikeCode(code)) return undefined;
  if (otherCodes.length > 0 && CODE_CHARS.test(code)) {
    return { ok: true, value: { kind: 'codes', codes: distinctCodes([code, ...otherCodes]) } };
  }
  return {
    ok: true,
    value: {
      kind: 'question',
      code,
      ...(quantity === undefined ? {} : { quantity: quantity.value }),
      branchWords,
      fallback,
    },
  };
}

/** The text that `parseStockCommand` reads back as this search (for headers and the console). */
export function stockQueryText(query: ItemQuery & { supplierName?: string }): string {
  const parts = [...query.words];
  if (query.category !== undefined) parts.push(`category:${query.category}`);
  if (query.supplier !== undefined) parts.push(`supplier:${query.supplier}`);
  if (query.supplierName !== undefined) parts.push(`supplier:${query.supplierName}`);
  return parts.join(' ');
}

/** The text that `parseContactCommand` reads back as this search. */
export function contactQueryText(query: ContactQuery): string {
  const parts = [...query.words];
  if (query.type !== undefined) parts.push(`type:${query.type}`);
  return parts.join(' ');
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
        error: {
          kind: 'bad_contact_type',
          typed: quote(filter.typed),
          example,
        },
      };
    },
    example,
  );
}
