/**
 * `/contact john smith`: the ERP's contact search matches the people of a contact as well as
 * its company, code and trading name, and its rows carry no people. For a row whose own
 * fields do not hold every word, the contact is looked up (the same cache, budget and fair
 * queue as any lookup, and View then answers from the cache) to name the people who matched;
 * a few rows a page at most, so a search never spends more than a handful of lookups; the
 * rows past those are noted as found by a person or the trading name, with no lookup.
 * The rows do not carry the trading name the ERP also matches on, so a row matched on it is
 * looked up too and names nobody: that cost is documented (docs/architecture.md) rather than
 * avoided, as nothing in the row tells the two apart.
 */
import type { AddressbookEntry, ContactSearchRow } from '../erp/schemas.js';
import type { ContactQuery } from '../lookup/types.js';
import { holdsEveryWord, matchingPeople } from '../rules/people.js';
import type { MatchedPerson } from '../views/searchLists.js';
import type { ContactDeps } from './deps.js';

/** Rows a page whose people are looked up: within a person's first slots of the budget. */
const MAX_ROWS_LOOKED_UP = 3;

const person = (entry: AddressbookEntry): MatchedPerson => ({
  name: entry.name,
  role: entry.role,
});

/** Who a contact search found by a person, as its list says it (views/searchLists.ts). */
interface PersonMatches {
  /** By contact code: the people who matched the words; rows matched on their own are absent. */
  people: Map<string, MatchedPerson[]>;
  /** Codes of the rows that may have matched by a person, past the ones looked up. */
  notLookedUp: Set<string>;
}

/** The people who matched the words, for the first rows a person may have matched. */
export async function matchedPeople(
  deps: Pick<ContactDeps, 'lookup'>,
  query: ContactQuery,
  rows: readonly ContactSearchRow[],
  requester: string,
): Promise<PersonMatches> {
  const words = query.words.filter((word) => word.trim() !== '');
  const found: PersonMatches = { people: new Map(), notLookedUp: new Set() };
  if (words.length === 0) return found;
  const byPerson = rows
    .filter((row) => row.addressbook_count > 0)
    .filter((row) => !holdsEveryWord([row.company, row.code], words));
  for (const row of byPerson.slice(MAX_ROWS_LOOKED_UP)) found.notLookedUp.add(row.code);
  await Promise.all(
    byPerson.slice(0, MAX_ROWS_LOOKED_UP).map(async (row) => {
      try {
        const fetched = await deps.lookup.getContact({ id: row.clientid }, { requester });
        const people = matchingPeople(fetched.data.addressbook, words);
        if (people.length > 0) found.people.set(row.code, people.map(person));
      } catch {
        // The row stays as the search gave it: the note is a help, not the answer.
      }
    }),
  );
  return found;
}
