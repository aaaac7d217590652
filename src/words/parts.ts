/**
 * The parts of a sentence besides the item: a quantity (`50`, `x50`, `5 x`, `10 pcs of`), a
 * watch's direction and threshold (`drops below 20`, `< 10`, `back in stock`), and branch
 * words (`in perth`, `at mel`, `from bne`). Each reader marks the words it took in `used`, so
 * that what is left is the item's words.
 */
import { foldedName } from '../catalogue/search.js';
import type { WatchDirection } from './reading.js';
import { isWordLike, type Token } from './tokens.js';
import {
  ABOVE_WORDS,
  ARTICLES,
  BELOW_WORDS,
  BRANCH_MARKERS,
  CONTACT_WORDS,
  FILLER,
  GREETINGS,
  NOT_QUANTITY_UNITS,
  PLACE_NOUNS,
  UNIT_WORDS,
} from './vocabulary.js';

/** One flag a token: taken by a part of the reading. */
export type Marks = boolean[];

/** Words that name nothing: filler, greetings, units. */
export function isNoise(word: string): boolean {
  return (
    FILLER.has(word) ||
    GREETINGS.has(word) ||
    UNIT_WORDS.has(word) ||
    NOT_QUANTITY_UNITS.has(word) ||
    ARTICLES.has(word) ||
    PLACE_NOUNS.has(word) ||
    BRANCH_MARKERS.has(word)
  );
}

// Whole or decimal (`2.5` metres of cable, `40.5` litres): stock is counted in either.
const NUMBER = /^x?(\d{1,9}(?:\.\d{1,3})?)(?:x|pcs?|units?|ea)?$/;
/** The most an item could be asked for in one sentence; beyond it the number is not a quantity. */
const MAX_QUANTITY = 1_000_000_000;

/** A number as a quantity is written (`20`, `x20`, `20pcs`, `2.5`), or undefined. */
export const quantityOf = (word: string): number | undefined => numberOf(word);

function numberOf(word: string): number | undefined {
  const match = NUMBER.exec(word);
  const value = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  return Number.isFinite(value) && value < MAX_QUANTITY ? value : undefined;
}

/**
 * The quantity asked for: `undefined` when none, `'several'` when two different numbers could
 * be it (the reader asks rather than picks). A number followed by a time or measure (`in 2
 * days`, `10 mm`) or written as money is not a quantity.
 */
export function readQuantity(
  tokens: readonly Token[],
  used: Marks,
): number | 'several' | undefined {
  let found: number | undefined;
  for (let at = 0; at < tokens.length; at += 1) {
    const token = tokens[at];
    if (used[at] || token === undefined || token.raw.startsWith('$')) continue;
    const value = numberOf(token.word);
    if (value === undefined) continue;
    used[at] = true;
    const next = tokens[at + 1];
    if (next !== undefined && !used[at + 1] && NOT_QUANTITY_UNITS.has(next.word)) {
      used[at + 1] = true;
      continue;
    }
    if (next !== undefined && !used[at + 1] && UNIT_WORDS.has(next.word)) used[at + 1] = true;
    if (found !== undefined && found !== value) return 'several';
    found = value;
  }
  return found;
}

interface Direction {
  direction: WatchDirection;
  /** Absent: the sentence said "runs low" but no number. */
  threshold?: number;
}

/** `below 20`, `less than 20`, `< 20`, `over 5`, `back in stock` (above 0), `runs out` (below 1). */
export function readDirection(tokens: readonly Token[], used: Marks): Direction | undefined {
  const words = tokens.map((token) => token.word);
  const back = phraseAt(words, ['back', 'in', 'stock']);
  if (back >= 0) {
    for (let i = back; i < back + 3; i += 1) used[i] = true;
    return { direction: 'above', threshold: 0 };
  }
  const out = Math.max(phraseAt(words, ['runs', 'out']), phraseAt(words, ['out', 'of', 'stock']));
  if (out >= 0) return { direction: 'below', threshold: 1 };
  for (let at = 0; at < tokens.length; at += 1) {
    const word = words[at] ?? '';
    if (used[at]) continue;
    const direction = BELOW_WORDS.has(word) ? 'below' : ABOVE_WORDS.has(word) ? 'above' : undefined;
    if (direction === undefined) continue;
    used[at] = true;
    let next = at + 1;
    // `less than 20`, `drops down to 20`, `goes over 5`.
    while (['than', 'to', 'of', 'down', 'up'].includes(words[next] ?? '')) {
      used[next] = true;
      next += 1;
    }
    const threshold = numberOf(words[next] ?? '');
    if (threshold === undefined) return { direction };
    used[next] = true;
    return { direction, threshold };
  }
  const low = phraseAt(words, ['runs', 'low']);
  return low >= 0 ? { direction: 'below' } : undefined;
}

function phraseAt(words: readonly string[], phrase: readonly string[]): number {
  for (let at = 0; at + phrase.length <= words.length; at += 1) {
    if (phrase.every((word, i) => words[at + i] === word)) return at;
  }
  return -1;
}

/** The longest run of words tried as one branch name (`gold coast`). */
const MAX_BRANCH_WORDS = 4;

/**
 * Branch words: the words after `in`, `at` or `from` (or `for` before a branch the app knows);
 * else any word naming a known branch; else, when `leftovers` (an item was named by code),
 * the words nobody else took, as `/stock CODE 50 perth` reads them. Abbreviations of a known
 * branch (`bne`, `gc`, `melb`) are written out as its name.
 */
export function readBranch(
  tokens: readonly Token[],
  used: Marks,
  names: readonly string[],
  leftovers: boolean,
): string[] {
  const folded = names.map(foldedName);
  for (let at = 0; at < tokens.length; at += 1) {
    const word = tokens[at]?.word ?? '';
    if (used[at]) continue;
    const marker = BRANCH_MARKERS.has(word);
    const before = word === 'for' && nameFor(tokens[at + 1]?.word ?? '', folded) !== undefined;
    if (!marker && !before) continue;
    const phrase = phraseAfter(tokens, used, at + 1);
    if (phrase.length === 0) continue;
    used[at] = true;
    return expanded(
      phrase.map((token) => token.word),
      folded,
    );
  }
  const named: string[] = [];
  tokens.forEach((token, at) => {
    if (used[at] || isNoise(token.word) || nameFor(token.word, folded) === undefined) return;
    used[at] = true;
    named.push(token.word);
  });
  if (named.length > 0) return expanded(named, folded);
  if (!leftovers) return [];
  const rest: string[] = [];
  tokens.forEach((token, at) => {
    if (used[at] || isNoise(token.word) || !isWordLike(token.word)) return;
    // `customer on the phone about PLANT-88`: contact words are not places.
    if (CONTACT_WORDS.has(token.word)) return;
    used[at] = true;
    rest.push(token.word);
  });
  return expanded(rest, folded);
}

/** The words of a branch name after its marker: articles skipped, up to filler or a place noun. */
function phraseAfter(tokens: readonly Token[], used: Marks, start: number): Token[] {
  let at = start;
  while (ARTICLES.has(tokens[at]?.word ?? '')) at += 1;
  const phrase: Token[] = [];
  const taken: number[] = [];
  while (at < tokens.length && phrase.length < MAX_BRANCH_WORDS) {
    const token = tokens[at];
    if (token === undefined || used[at] || !isWordLike(token.word)) break;
    if (PLACE_NOUNS.has(token.word)) {
      taken.push(at);
      break;
    }
    if (isNoise(token.word)) break;
    phrase.push(token);
    taken.push(at);
    at += 1;
  }
  if (phrase.length > 0) for (const i of taken) used[i] = true;
  return phrase;
}

/** Whether `word` names one of the branches the app knows (`perth`, `bne`, `gc`). */
export function namesKnownBranch(word: string, names: readonly string[]): boolean {
  return nameFor(word, names.map(foldedName)) !== undefined;
}

/** The one known branch `word` names: whole, a prefix of 3+, initials, or an abbreviation. */
function nameFor(word: string, names: readonly string[]): string | undefined {
  if (word.length < 2 || names.length === 0) return undefined;
  const exact = names.filter((name) => name === word);
  if (exact.length === 1) return exact[0];
  const matches = names.filter((name) => abbreviates(word, name));
  return matches.length === 1 ? matches[0] : undefined;
}

function abbreviates(word: string, name: string): boolean {
  const parts = name.split(' ');
  if (parts.length > 1 && word === parts.map((part) => part.charAt(0)).join('')) return true;
  if (word.length < 3 || word.charAt(0) !== name.charAt(0)) return false;
  if (name.startsWith(word)) return true;
  // `bne`, `adl`, `tsv`: the letters in order, as airport-style abbreviations are made.
  const letters = name.replace(/ /g, '');
  let i = 0;
  for (const char of letters) if (char === word.charAt(i)) i += 1;
  return i === word.length;
}

/** Each word (or run of words) naming one known branch becomes that branch's name. */
function expanded(words: readonly string[], names: readonly string[]): string[] {
  if (names.length === 0) return [...words];
  const whole = nameFor(words.join(' '), names);
  if (whole !== undefined) return whole.split(' ');
  return words.flatMap((word) => nameFor(word, names)?.split(' ') ?? [word]);
}
