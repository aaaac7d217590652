/**
 * `/contact ACME01 accounts`: the people of a contact who match every word (in their name,
 * role or department), and the one retry a multi-word contact search that found nothing gets
 * (the leading word(s) as the account, the rest as a person filter). Pure; views word it.
 */
import type { AddressbookEntry } from '../erp/schemas.js';
import type { ContactQuery } from '../lookup/types.js';
import { roleForms } from './roleWords.js';
import { fold } from './stock.js';

/** Case, accents and the apostrophe's spelling aside: `o'connor` finds O’Connor. */
const foldPerson = (text: string) => fold(text).replace(/[’‘ʼ`´]/g, "'");

/** True when every word is found in one of the texts (any case, accents ignored). */
export function holdsEveryWord(texts: readonly string[], words: readonly string[]): boolean {
  const haystack = foldPerson(texts.join(' '));
  return words.every((word) => haystack.includes(foldPerson(word)));
}

/**
 * True when every word, or a word it stands for (a buyer is in purchasing: `ROLE_SYNONYMS`),
 * is found in the person's name, role or department (any case).
 */
function personMatches(person: AddressbookEntry, words: readonly string[]): boolean {
  const haystack = foldPerson(
    [person.salutation, person.name, person.role, person.department].join(' '),
  );
  return words.every((word) => roleForms(foldPerson(word)).some((form) => haystack.includes(form)));
}

/** The people matching every word, in the ERP's order; all of them when there are no words. */
export function matchingPeople(
  people: readonly AddressbookEntry[],
  words: readonly string[],
): AddressbookEntry[] {
  const wanted = words.filter((w) => w.trim() !== '');
  return wanted.length === 0 ? [...people] : people.filter((p) => personMatches(p, wanted));
}

/** Words that belong to a company's name rather than to a person: `acme pty ltd accounts`. */
const COMPANY_WORDS = new Set([
  'pty',
  'ltd',
  'limited',
  'inc',
  'co',
  'corp',
  'llc',
  'plc',
  'gmbh',
  '&',
  'and',
  'group',
  'holdings',
]);

interface ContactRetry {
  /** The search for the account alone. */
  account: ContactQuery;
  /** The words left to find among its people. */
  peopleWords: string[];
}

/**
 * The retry for a search of several words that found nothing: the first word, with any
 * company-name words right after it, as the account; the rest as a person filter. Undefined
 * when there is nothing to split (one word, or no word left for the people).
 */
export function contactRetryPlan(query: ContactQuery): ContactRetry | undefined {
  const [first, ...rest] = query.words;
  if (first === undefined || rest.length === 0) return undefined;
  const account = [first];
  while (rest.length > 1 && COMPANY_WORDS.has(fold(rest[0] ?? ''))) {
    account.push(rest.shift() ?? '');
  }
  return {
    account: { ...query, words: account },
    peopleWords: rest,
  };
}

/** What the ERP's contact search cannot find contacts by, when that is what was typed. */
export type UnsearchableKind = 'phone' | 'email' | 'abn';

/**
 * `/contact 0412 345 678`, `/contact jane@acme.com.au`, `/contact 51 824 753 556`: a phone
 * number, an e-mail address or an ABN, which the ERP's search does not look in (it matches
 * codes, company names and people's names), so "nothing found" needs saying why.
 */
export function unsearchableKind(words: readonly string[]): UnsearchableKind | undefined {
  const text = words.join(' ');
  if (/\S@\S/.test(text)) return 'email';
  const digits = text.replace(/[\s()+\-.]/g, '');
  if (!/^\d+$/.test(digits)) return undefined;
  if (digits.length === 11 && !digits.startsWith('0')) return 'abn';
  return digits.length >= 8 && digits.length <= 15 ? 'phone' : undefined;
}

/** The words with the other apostrophe (`o'connor` and `o’connor`), or undefined for none. */
export function otherApostrophe(words: readonly string[]): string[] | undefined {
  if (!words.some((word) => /['’]/.test(word))) return undefined;
  return words.map((word) =>
    word.includes("'") ? word.replace(/'/g, '’') : word.replace(/’/g, "'"),
  );
}
