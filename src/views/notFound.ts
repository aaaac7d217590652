/**
 * What we say when an exact lookup by id finds nothing (there is nothing to search for; a
 * code that is not found is searched for, and the search list words that).
 */
import type { ErpRef } from '../erp/schemas.js';

type Noun = 'item' | 'contact';

export function notFoundNotice(model: { noun: Noun; ref: ErpRef }): string {
  const what = 'id' in model.ref ? `the internal id ${model.ref.id}` : 'that code';
  return `No ${model.noun} has ${what} in the ERP. Try its code, or search with a few words.`;
}

/**
 * A contact search of several words found nothing and was tried again with the leading
 * word(s) as the account: said above the accounts it found (plain text; the list escapes it).
 */
export function contactRetryNotice(model: {
  typed: readonly string[];
  account: readonly string[];
  peopleWords: readonly string[];
}): string {
  const quoted = (words: readonly string[]) => `“${words.join(' ')}”`;
  return `No contact matched ${quoted(model.typed)}, so these are the accounts matching ${quoted(model.account)}: open one and type /contact CODE ${model.peopleWords.join(' ')} to see only its people matching ${quoted(model.peopleWords)}.`;
}
