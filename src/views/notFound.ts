/**
 * What we say when an exact lookup finds nothing: for an id (nothing to search for), or for a
 * code, heading the list of close matches found by searching for it.
 */
import type { ErpRef } from '../erp/api.js';

type Noun = 'item' | 'contact';

export function notFoundNotice(model: { noun: Noun; ref: ErpRef }): string {
  const what = 'id' in model.ref ? `the internal id ${model.ref.id}` : 'that code';
  return `No ${model.noun} has ${what} in the ERP. Try its code, or search with a few words.`;
}

export function closestMatchesNotice(model: {
  noun: Noun;
  code: string;
  anyMatch: boolean;
}): string {
  const { noun, code } = model;
  return model.anyMatch
    ? `No ${noun} has the code ${code}. Closest matches:`
    : `No ${noun} has the code ${code}, and no ${noun} matches it.`;
}
