/**
 * `/contact ACME01 accounts`: the people of a contact who match every word (in their name,
 * role or department), and the one retry a multi-word contact search that found nothing gets
 * (the leading word(s) as the account, the rest as a person filter). Pure; views word it.
 */
import type { AddressbookEntry } from '../erp/schemas.js';
import type { ContactQuery } from '../lookup/types.js';
import { fold } from './stock.js';

/** True when every word is found in one of the texts (any case, accents ignored). */
export function holdsEveryWord(texts: readonly string[], words: readonly string[]): boolean {
  const haystack = fold(texts.join(' '));
  return words.every((word) => haystack.includes(fold(word)));
}

/** True when every word is found in the person's name, role or department (any case). */
function personMatches(person: AddressbookEntry, words: readonly string[]): boolean {
  return holdsEveryWord([person.salutation, person.name, person.role, person.department], words);
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
