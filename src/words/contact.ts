/**
 * Contact questions: "who does accounts at ACME01", "phone number for ACME01", "email for jane
 * at acme01", "who's the purchasing officer at acme industrial", "contact for big mining",
 * "who looks after ACMEWH01". The account is what follows the last `at`/`for`/`from`/`after`
 * (a code, or words of its name); the words before it that are not filler are people words
 * (a name, a role, a department), matched as `/contact CODE words` matches them.
 */

import { isNoise } from './parts.js';
import type { AccountRef, CodeHit, Reading } from './reading.js';
import type { Token } from './tokens.js';
import {
  ACCOUNT_MARKERS,
  ARTICLES,
  CONTACT_PHRASES,
  CONTACT_WORDS,
  singular,
  WHO_WORDS,
} from './vocabulary.js';

/** The most words taken as an account's name. */
const MAX_ACCOUNT_WORDS = 6;

/** A contact reading, or undefined when the sentence is not a contact question. */
export function readContact(
  tokens: readonly Token[],
  codes: readonly CodeHit[],
): Reading | undefined {
  const words = tokens.map((token) => token.word);
  const phrase = phraseWords(words);
  // `customer on the phone asking about PLANT-88`: on the phone is where they are, not what
  // is asked for.
  const onThe = (at: number) => words[at - 1] === 'the' && words[at - 2] === 'on';
  const strong = words.some((word, at) => CONTACT_WORDS.has(word) && !onThe(at)) || phrase.size > 0;
  // `who has WIDGET-9?` asks about an item the index knows; `who does accounts at ACME01`
  // about an account.
  const who = words.some((word) => WHO_WORDS.has(word)) && !codes.some((hit) => hit.known);
  if (!strong && !who) return undefined;

  const skip = (at: number) => {
    const word = words[at] ?? '';
    return phrase.has(at) || CONTACT_WORDS.has(word) || WHO_WORDS.has(word) || isNoise(word);
  };
  const marker = lastMarker(tokens, skip);
  let account: AccountRef | undefined;
  const people: string[] = [];
  if (marker !== undefined) {
    account = accountOf(tokens.slice(marker + 1));
    tokens.slice(0, marker).forEach((token, at) => {
      if (!skip(at)) people.push(singular(token.word));
    });
  } else {
    const coded = tokens.findIndex((token) => isCodeLike(token.raw));
    tokens.forEach((token, at) => {
      if (at !== coded && !skip(at)) people.push(token.word);
    });
    if (coded >= 0) account = { code: tokens[coded]?.raw ?? '' };
    // `contact acme`: the words are the account; `who does accounts?`: they are a role.
    else if (people.length > 0 && strong) account = { words: people.splice(0) };
  }
  if (account === undefined) return { kind: 'not_understood', reason: 'which_account' };
  // `customer on the phone about PLANT-88`: the "account" is an item the index knows.
  const named = account;
  if ('code' in named && codes.some((hit) => hit.known && hit.code === named.code))
    return undefined;
  const stopCredit = words.some(
    (word, at) => word === 'stop' && (words[at + 1] === 'credit' || words[at - 1] === 'on'),
  );
  return {
    kind: 'request',
    request: {
      kind: 'contact',
      account,
      peopleWords: people.map((word) => singular(word)),
      ...(stopCredit ? { ask: 'stop_credit' as const } : {}),
    },
  };
}

/** Positions of the words of a contact phrase (`looks after`). */
function phraseWords(words: readonly string[]): Set<number> {
  const found = new Set<number>();
  for (const [first, second] of CONTACT_PHRASES) {
    for (let at = 0; at + 1 < words.length; at += 1) {
      if (words[at] === first && words[at + 1] === second) {
        found.add(at);
        // `after` stays a marker: `who looks after ACMEWH01`.
        if (!['after', 'to'].includes(second)) found.add(at + 1);
      }
    }
  }
  return found;
}

/** The last `at`/`for`/`after`… with an account-like word after it. */
function lastMarker(tokens: readonly Token[], skip: (at: number) => boolean): number | undefined {
  for (let at = tokens.length - 2; at >= 0; at -= 1) {
    if (!ACCOUNT_MARKERS.has(tokens[at]?.word ?? '')) continue;
    const rest = tokens.slice(at + 1);
    if (rest.some((token, i) => isCodeLike(token.raw) || !skip(at + 1 + i))) return at;
  }
  return undefined;
}

/** `ACME01`, `acme01`, `R&D/01`: a code; else the words of a name, filler dropped. */
function accountOf(tokens: readonly Token[]): AccountRef | undefined {
  const rest = [...tokens];
  while (ARTICLES.has(rest[0]?.word ?? '')) rest.shift();
  const coded = rest.find((token) => isCodeLike(token.raw));
  if (coded) return { code: coded.raw };
  const words = rest
    .map((token) => token.word)
    .filter((word) => !isNoise(word) && !CONTACT_WORDS.has(word))
    .slice(0, MAX_ACCOUNT_WORDS);
  return words.length > 0 ? { words } : undefined;
}

/** An account code: letters and at least one digit (contact codes are never indexed). */
function isCodeLike(raw: string): boolean {
  return /\p{L}/u.test(raw) && /\d/.test(raw) && /^[\p{L}\d&/._-]{2,40}$/u.test(raw);
}
