/**
 * The one account a contact question resolved to (for the account-only card a channel sees),
 * read through the cache the answer just filled.
 */
import { NotFoundError } from '../../erp/errors.js';
import type { Contact } from '../../erp/schemas.js';
import type { Freshness } from '../../lookup/types.js';
import type { AccountRef } from '../../words/reading.js';
import type { ListenerDeps } from '../deps.js';
import type { Actor } from '../payloads.js';

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
