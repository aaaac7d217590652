/**
 * What we say when an exact lookup by id finds nothing (there is nothing to search for; a
 * code that is not found is searched for, and the search list words that).
 */
import type { ErpRef } from '../erp/api.js';

type Noun = 'item' | 'contact';

export function notFoundNotice(model: { noun: Noun; ref: ErpRef }): string {
  const what = 'id' in model.ref ? `the internal id ${model.ref.id}` : 'that code';
  return `No ${model.noun} has ${what} in the ERP. Try its code, or search with a few words.`;
}
