/**
 * The sentence reader: "have we got 50 WIDGET-9 in perth?" becomes the request
 * `/stock WIDGET-9 50 perth` would make. Deterministic, no language model, and no ERP call: it
 * asks only the catalogue index (`WordsIndex`). When it is not sure which item is meant it
 * says so with up to three candidates; when it cannot read the sentence it says that. A wrong
 * reading is worse than a question, so every guess it could make is a question instead.
 *
 * In order: help; a greeting; a watch (a trigger, a direction and a number); a contact
 * question (contact words, or `who` without a known item); else a stock question (item codes
 * anywhere, or item words the index resolves; a quantity; branch words).
 */

import type { Candidate } from '../views/words.js';
import { readBuildIntent } from './build.js';
import { looksLikeItemCode, withoutAccents } from './codeShape.js';
import { readContact } from './contact.js';
import {
  isNoise,
  type Marks,
  namesKnownBranch,
  quantityOf,
  readBranch,
  readDirection,
  readQuantity,
} from './parts.js';
import { readPriceIntent } from './price.js';
import { type CodeHit, MAX_CANDIDATES, type Reading, type WordsIndex } from './reading.js';
import { isWordLike, type Token, tokenize } from './tokens.js';
import {
  CONTACT_WORDS,
  GREETINGS,
  HELP_SENTENCES,
  HELP_WORDS,
  singular,
  WATCH_TRIGGERS,
} from './vocabulary.js';
import { namesEveryWord } from './wholeWords.js';

/** Reads one sentence. Never throws; costs microseconds (docs/benchmarks.md). */
export function readSentence(sentence: string, index: WordsIndex): Reading {
  const tokens = tokenize(sentence);
  const words = tokens.map((token) => token.word);
  if (String(sentence).trim() === '?') return { kind: 'request', request: { kind: 'help' } };
  if (tokens.length === 0) return { kind: 'not_understood', reason: 'empty' };
  if (isHelp(words)) return { kind: 'request', request: { kind: 'help' } };
  if (words.every((word) => GREETINGS.has(word))) {
    return { kind: 'not_understood', reason: 'greeting' };
  }
  const used: Marks = tokens.map(() => false);
  const codes = findCodes(tokens, index);
  for (const hit of codes) for (let at = hit.at; at <= hit.to; at += 1) used[at] = true;

  const intent = readWatchIntent(tokens, used, codes, index);
  if (intent) return intent;
  const watch = readWatch(tokens, used, codes, index);
  if (watch) return watch;
  const build = readBuildIntent(tokens, used, codes, index.branchNames());
  if (build) return build;
  const contact = readContact(tokens, codes);
  if (contact) return contact;
  if (codes.length <= 1 && readPriceIntent(tokens, used)) {
    const stock = readStock(tokens, used, codes, index);
    if (stock.kind !== 'request' || stock.request.kind !== 'item') return stock;
    return { kind: 'request', request: { kind: 'price', code: stock.request.code } };
  }
  return readStock(tokens, used, codes, index);
}

function isHelp(words: readonly string[]): boolean {
  const text = words.join(' ');
  if (HELP_SENTENCES.includes(text) || text === '?' || text === '') return text !== '';
  return (
    words.some((w) => HELP_WORDS.has(w)) && words.every((w) => HELP_WORDS.has(w) || isHelpFiller(w))
  );
}

const isHelpFiller = (word: string) =>
  [
    'me',
    'please',
    'pls',
    'i',
    'need',
    'some',
    'show',
    'the',
    'hi',
    'hey',
    'hello',
    'what',
    'are',
  ].includes(word);

/** Every item code in the sentence, in order, each once. */
function findCodes(tokens: readonly Token[], index: WordsIndex): CodeHit[] {
  const hits: CodeHit[] = [];
  const seen = new Set<string>();
  for (let at = 0; at < tokens.length; at += 1) {
    const token = tokens[at];
    if (token === undefined) continue;
    const hit = looseCodeAt(tokens, at, index) ?? codeAt(token, at, index);
    if (!hit) continue;
    at = hit.to;
    const key = hit.code.toUpperCase();
    if (seen.has(key)) continue;
    seen.add(key);
    hits.push(hit);
  }
  return hits;
}

/** The longest run of words tried as one code written loosely (`fst m8 25`). */
const MAX_LOOSE_WORDS = 4;
const LOOSE_PIECE = /^[\p{L}\p{N}][\p{L}\p{N}\-/._]*$/u;

/**
 * A code written in pieces (`fst m8 25`, `widget 9`): the run of words whose letters and
 * digits are one known code's, longest first. Only when the first word alone is no known code
 * (`WIDGET-9 0` is not WIDGET-90), it starts with a letter and the run holds a digit.
 */
function looseCodeAt(tokens: readonly Token[], at: number, index: WordsIndex): CodeHit | undefined {
  const first = tokens[at];
  if (first === undefined || !/^\p{L}/u.test(first.raw) || !LOOSE_PIECE.test(first.raw)) {
    return undefined;
  }
  if (isNoise(first.word) || index.knownCode(first.raw) !== undefined) return undefined;
  for (let n = Math.min(MAX_LOOSE_WORDS, tokens.length - at); n >= 2; n -= 1) {
    const run = tokens.slice(at, at + n);
    if (!run.every((token) => LOOSE_PIECE.test(token.raw))) continue;
    if (!run.some((token) => /\d/.test(token.raw))) continue;
    const known = index.knownCode(run.map((token) => token.raw).join(''));
    if (known !== undefined) return { at, to: at + n - 1, code: known, known: true, near: [] };
  }
  return undefined;
}

function codeAt(token: Token, at: number, index: WordsIndex): CodeHit | undefined {
  const { raw, word } = token;
  if (/^\d+$/.test(raw) || raw.length < 2) return undefined;
  const plain = withoutAccents(raw);
  const shaped = looksLikeItemCode(plain);
  // Plain words are asked about only when they are not filler (`in` is never the code IN).
  const mayBeCode = shaped || /[\d\-/._]/.test(raw) || !isNoise(word);
  const known = mayBeCode ? index.knownCode(raw) : undefined;
  if (known !== undefined) return { at, to: at, code: known, known: true, near: [] };
  if (shaped) {
    // Written as a code: the ERP decides, unless the whole catalogue is indexed and knows
    // codes close to it (a typo: ask back rather than look up what does not exist).
    const near = index.complete() ? index.nearestCodes(raw, MAX_CANDIDATES) : [];
    return { at, to: at, code: raw, known: false, near };
  }
  if (!looksLikeItemCode(plain.toUpperCase())) return undefined;
  // `widgte-9`: lower case and unknown. Close codes are a question; a code with a separator
  // is looked up as typed (the command does the same); anything else is a word.
  const near = index.nearestCodes(raw, MAX_CANDIDATES);
  if (near.length > 0) return { at, to: at, code: raw, known: false, near };
  return /[-/._]/.test(raw) ? { at, to: at, code: raw, known: false, near: [] } : undefined;
}

const STOP_WORDS = new Set(['stop', 'cancel', 'remove', 'delete', 'end', 'unsubscribe']);
const WATCH_NOUNS = new Set(['watch', 'watches', 'watching', 'alert', 'alerts', 'alerting']);

/**
 * "stop watching WIDGET-9", "unwatch WIDGET-9 at perth": an offer to stop this conversation's
 * watch; "what are we watching?", "my watches": the list. Never a lookup of the item.
 */
function readWatchIntent(
  tokens: readonly Token[],
  used: Marks,
  codes: readonly CodeHit[],
  index: WordsIndex,
): Reading | undefined {
  const words = tokens.map((token) => token.word);
  const stop =
    words.includes('unwatch') ||
    (words.some((word) => STOP_WORDS.has(word)) && words.some((word) => WATCH_NOUNS.has(word)));
  const [hit] = codes;
  if (stop) {
    if (hit === undefined) return { kind: 'not_understood', reason: 'which_item' };
    const branchWords = readBranch(tokens, used, index.branchNames(), false);
    return { kind: 'request', request: { kind: 'unwatch', code: hit.code, branchWords } };
  }
  const listing =
    hit === undefined &&
    (words.includes('watches') || words.includes('watching')) &&
    words.every((word) => isNoise(word) || WATCH_NOUNS.has(word) || LIST_WORDS.has(word));
  return listing ? { kind: 'request', request: { kind: 'watches' } } : undefined;
}

const LIST_WORDS = new Set(['list', 'my', 'our', 'current', 'active', 'open', 'all']);

/** `tell me when WIDGET-9 drops below 20 in perth`: a watch to propose. */
function readWatch(
  tokens: readonly Token[],
  used: Marks,
  codes: readonly CodeHit[],
  index: WordsIndex,
): Reading | undefined {
  if (!tokens.some((token) => WATCH_TRIGGERS.has(token.word))) return undefined;
  const direction = readDirection(tokens, used);
  if (!direction) return undefined;
  if (direction.threshold === undefined) {
    return { kind: 'not_understood', reason: 'watch_threshold' };
  }
  const branchWords = readBranch(tokens, used, index.branchNames(), false);
  const item = oneItem(tokens, used, codes, index, { branchWords });
  if (item.kind !== 'code') return item.reading;
  return {
    kind: 'request',
    request: {
      kind: 'watch',
      code: item.code,
      direction: direction.direction,
      threshold: direction.threshold,
      branchWords,
    },
  };
}

/** A stock question: one code or several, or item words; a quantity; branch words. */
function readStock(
  tokens: readonly Token[],
  used: Marks,
  codes: readonly CodeHit[],
  index: WordsIndex,
): Reading {
  // Several codes: one line each, as `/stock A, B` answers, each with its own quantity.
  if (codes.length > 1 && codes.every((hit) => hit.near.length === 0)) {
    return severalCodes(tokens, used, codes, index);
  }
  const quantity = readQuantity(tokens, used);
  if (quantity === 'several') return { kind: 'not_understood', reason: 'two_quantities' };
  const qualifiers = qualifiersOf(tokens, used, codes, index);
  const branchWords = readBranch(tokens, used, index.branchNames(), codes.length > 0);
  const ask = { ...(quantity === undefined ? {} : { quantity }), branchWords };
  const phrase = qualifiers && qualifiedItem(qualifiers, index, ask);
  if (phrase) return phrase.kind === 'code' ? itemRequest(phrase.code, ask) : phrase.reading;
  const item = oneItem(tokens, used, codes, index, ask);
  if (item.kind !== 'code') return item.reading;
  return itemRequest(item.code, qualifiers ? { ...ask, qualifiers: qualifiers.words } : ask);
}

const itemRequest = (
  code: string,
  ask: { quantity?: number; branchWords: string[]; qualifiers?: string[] },
): Reading => ({
  kind: 'request',
  request: { kind: 'item', code, ...ask },
});

/** The most items a qualified code's phrase is checked word by word against. */
const PHRASE_MATCHES = 50;

/** A code and the words right after it that qualify it (`the WIDGET-9 bracket`). */
interface Qualified {
  hit: CodeHit;
  words: string[];
  /** Every word is known to be no branch (the app knows its branches' names). */
  surely: boolean;
}

/**
 * The words right after the one code that are neither a quantity, a branch, filler nor a
 * contact word: part of what was asked (`WIDGET-9 seal kit`), never a branch to drop. Marked
 * used only once they resolve (`qualifiedItem`); else they stay for the branch reader.
 */
function qualifiersOf(
  tokens: readonly Token[],
  used: Marks,
  codes: readonly CodeHit[],
  index: WordsIndex,
): Qualified | undefined {
  const [hit] = codes;
  // A code the index does not know yet takes its qualifiers all the same: the command then
  // settles them with the item's branches (a fresh start must not drop `the WIDGET-9 motor`).
  if (hit === undefined || codes.length > 1 || hit.near.length > 0) return undefined;
  const names = index.branchNames();
  const qualifies = (at: number) => {
    const token = tokens[at];
    if (token === undefined || used[at] || !isWordLike(token.word)) return false;
    if (isNoise(token.word) || CONTACT_WORDS.has(token.word) || WATCH_TRIGGERS.has(token.word)) {
      return false;
    }
    return !namesKnownBranch(token.word, names);
  };
  const taken: number[] = [];
  for (let at = hit.to + 1; qualifies(at); at += 1) taken.push(at);
  // `the gear motor for widget 9`, `seal kit of WIDGET-9`: the words before `for` or `of`.
  const link = tokens[hit.at - 1]?.word;
  if ((link === 'for' || link === 'of') && !used[hit.at - 1]) {
    const before: number[] = [];
    for (let at = hit.at - 2; qualifies(at); at -= 1) before.unshift(at);
    if (before.length > 0) taken.unshift(...before, hit.at - 1);
  }
  const words = taken
    .filter((at) => at !== hit.at - 1)
    .map((at) => tokens[at]?.raw.toLowerCase() ?? '');
  if (words.length === 0) return undefined;
  // Taken for now; given back to the branch reader when they resolve to nothing.
  for (const at of taken) used[at] = true;
  return { hit, words, surely: names.length > 0 };
}

/**
 * The item a qualified code names: the code written out (`WIDGET-9 bracket` is
 * WIDGET-9-BRACKET), else the one item of a complete index matching every word; several are
 * a question. None: a question naming the phrase and the nearest codes when the words are
 * surely no branch and the index is complete; else undefined: the request carries them as
 * `qualifiers`, and the command finds whether they name a branch of the item or are searched
 * with its code as the phrase.
 */
function qualifiedItem(
  qualified: Qualified,
  index: WordsIndex,
  ask: { quantity?: number; branchWords: string[] },
): OneItem | undefined {
  const { hit, words } = qualified;
  const typed = [hit.code, ...words].join(' ');
  const written = index.knownCode([hit.code, ...words].join('-'));
  if (written !== undefined) return { kind: 'code', code: written };
  const matched = index.itemsMatching(
    [hit.code.toLowerCase(), ...words.map(singular)],
    PHRASE_MATCHES,
  );
  // Substrings aside (`wa` is in "Wall bracket"): only items naming each word as a word.
  const items = matched.items.filter((item) => namesEveryWord(item, words));
  const total = matched.total > PHRASE_MATCHES ? matched.total : items.length;
  const [only] = items;
  if (only !== undefined && total === 1 && index.complete()) {
    return { kind: 'code', code: only.code };
  }
  if (only !== undefined) return notSure('several_items', typed, items, ask, total);
  // The command settles them: the item's branches say whether they name one.
  if (!qualified.surely || !index.complete()) return undefined;
  const near = index.itemsMatching([hit.code.toLowerCase()], MAX_CANDIDATES);
  return notSure('near_codes', typed, near.items, ask);
}

/**
 * "can we do 20 FST-M8-25 and 5 WIDGET-9 from brisbane?": each code with the number right
 * before it (`20 x`, `20 pcs of` too), and the question's one branch for all of them.
 */
function severalCodes(
  tokens: readonly Token[],
  used: Marks,
  codes: readonly CodeHit[],
  index: WordsIndex,
): Reading {
  const quantities = codes.map((hit) => quantityBefore(tokens, used, hit.at));
  const branchWords = readBranch(tokens, used, index.branchNames(), false);
  const request = { kind: 'codes' as const, codes: codes.map((hit) => hit.code) };
  if (quantities.every((q) => q === undefined) && branchWords.length === 0) {
    return { kind: 'request', request };
  }
  return { kind: 'request', request: { ...request, question: { quantities, branchWords } } };
}

/** The number before the token at `at`, skipping `x`, `pcs`, `of`: taken when found. */
function quantityBefore(tokens: readonly Token[], used: Marks, at: number): number | undefined {
  let before = at - 1;
  while (before >= 0 && !used[before] && QUANTITY_LINKS.has(tokens[before]?.word ?? '')) {
    before -= 1;
  }
  const token = tokens[before];
  if (token === undefined || used[before] || !/^x?\d/.test(token.word)) return undefined;
  const value = quantityOf(token.word);
  if (value === undefined || value === 0) return undefined;
  for (let i = before; i < at; i += 1) used[i] = true;
  return value;
}

const QUANTITY_LINKS = new Set(['x', 'pc', 'pcs', 'units', 'unit', 'of', 'ea']);

type OneItem = { kind: 'code'; code: string } | { kind: 'reading'; reading: Reading };

/**
 * The one item the sentence names: its code, or the words the index resolves to exactly one
 * item of a complete catalogue. Anything less certain is a question back.
 */
function oneItem(
  tokens: readonly Token[],
  used: Marks,
  codes: readonly CodeHit[],
  index: WordsIndex,
  ask: { quantity?: number; branchWords: string[] },
): OneItem {
  const [hit] = codes;
  if (hit !== undefined) {
    if (hit.near.length === 0) return { kind: 'code', code: hit.code };
    return notSure('near_codes', hit.code, hit.near.map(described(index)), ask);
  }
  const words = tokens
    .filter((token, at) => !used[at] && !isNoise(token.word) && /\p{L}/u.test(token.word))
    // As typed, lower case: the index matches accents as the ERP does (`café`).
    .map((token) => singular(token.raw.toLowerCase()));
  if (words.length === 0) {
    const reason = tokens.every((token) => isNoise(token.word)) ? 'which_item' : 'unreadable';
    return { kind: 'reading', reading: { kind: 'not_understood', reason } };
  }
  const found = index.itemsMatching(words, MAX_CANDIDATES);
  const [only] = found.items;
  if (only !== undefined && found.total === 1 && index.complete()) {
    return { kind: 'code', code: only.code };
  }
  if (only === undefined) {
    return { kind: 'reading', reading: { kind: 'not_understood', reason: 'no_item', words } };
  }
  return notSure('several_items', words.join(' '), found.items, ask, found.total);
}

function notSure(
  reason: 'several_items' | 'near_codes',
  typed: string,
  candidates: Candidate[],
  ask: { quantity?: number; branchWords: string[] },
  total?: number,
): OneItem {
  return {
    kind: 'reading',
    reading: {
      kind: 'not_sure',
      reason,
      typed,
      candidates: candidates.slice(0, MAX_CANDIDATES),
      ...(total !== undefined && total > MAX_CANDIDATES ? { total } : {}),
      ...ask,
    },
  };
}

/** A near code with its description, when the index has one. */
function described(index: WordsIndex): (code: string) => Candidate {
  return (code) => ({ code, description: index.describe(code) ?? '' });
}
