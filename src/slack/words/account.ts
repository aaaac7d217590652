/**
 * What the words answers read besides the command's own answer: the catalogue index as the
 * reader asks it, and the one account a contact question resolved to (for the account-only
 * card a channel sees), read through the cache the answer just filled.
 */
import { NotFoundError } from '../../erp/errors.js';
import type { Contact } from '../../erp/schemas.js';
import type { Freshness } from '../../lookup/types.js';
import { BranchNames, catalogueWordsIndex } from '../../words/catalogueIndex.js';
import type { AccountRef, WordsIndex } from '../../words/reading.js';
import type { ListenerDeps } from '../deps.js';
import type { Actor } from '../payloads.js';

/** Before the catalogue exists (tests, a misconfigured start): codes are read as typed. */
const NO_INDEX: WordsIndex = {
  knownCode: () => undefined,
  nearestCodes: () => [],
  itemsMatching: () => ({ items: [], total: 0 }),
  complete: () => false,
  branchNames: () => [],
};

const indexes = new WeakMap<object, WordsIndex>();

/** The reader's view of the app's catalogue index (one per catalogue). */
export function wordsIndexOf(deps: Pick<ListenerDeps, 'catalogue' | 'words'>): WordsIndex {
  const { catalogue } = deps;
  if (!catalogue) return NO_INDEX;
  let index = indexes.get(catalogue);
  if (!index) {
    index = catalogueWordsIndex(
      { store: catalogue.store, isComplete: () => catalogue.isComplete() },
      deps.words?.branchNames ?? new BranchNames(),
    );
    indexes.set(catalogue, index);
  }
  return index;
}

/**
 * The one account the question named: by code (a miss is remembered by the cache), else the
 * only row of the search for its words. Undefined when there is no single account.
 */
export async function accountOf(
  deps: Pick<ListenerDeps, 'lookup'>,
  account: AccountRef,
  actor: Actor,
): Promise<{ contact: Contact; freshness: Freshness } | undefined> {
  const options = { requester: actor.userId };
  if ('code' in account) {
    try {
      const fetched = await deps.lookup.getContact({ code: account.code }, options);
      return { contact: fetched.data, freshness: fetched.freshness };
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  const words = 'code' in account ? [account.code] : account.words;
  const found = await deps.lookup.searchContacts({ words }, 0, options);
  const [only, ...others] = found.data.rows;
  if (only === undefined || others.length > 0 || found.data.hasNext) return undefined;
  const fetched = await deps.lookup.getContact({ code: only.code }, options);
  return { contact: fetched.data, freshness: fetched.freshness };
}
