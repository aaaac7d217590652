/**
 * Cache keys: equivalent requests must share one entry, and only what is provably equivalent
 * is merged. Codes are kept exactly as given (the ERP's code matching may be case-sensitive);
 * search keywords are trimmed and lower-cased but kept in the order given; filters are keyed
 * by name so their order never matters; ids are numbers.
 */
import { type ErpRef, isIdRef } from '../erp/api.js';
import { BadRequestError, type ErpEndpoint } from '../erp/errors.js';
import type { ContactQuery, ItemQuery } from './types.js';

export function refKey(kind: 'item' | 'contact', ref: ErpRef): string {
  return isIdRef(ref) ? `${kind}|id:${Number(ref.id)}` : `${kind}|code:${ref.code}`;
}

/** Keywords as sent upstream: split on whitespace, lower-cased, empty ones dropped, order kept. */
export function normaliseWords(words: readonly string[]): string[] {
  return words.flatMap((word) => word.trim().toLowerCase().split(/\s+/)).filter(Boolean);
}

export interface NormalisedItemQuery {
  words: string[];
  category: number | undefined;
  supplier: number | undefined;
}

export interface NormalisedContactQuery {
  words: string[];
  type: ContactQuery['type'];
}

function requireSomething(endpoint: ErpEndpoint, words: string[], hasFilter: boolean): void {
  // The spec does not say whether `q` is required: a search with neither keywords nor
  // filters would list the whole catalogue (or be refused), so it is never sent.
  if (words.length === 0 && !hasFilter) {
    throw new BadRequestError('A search needs at least one keyword or filter', { endpoint });
  }
}

export function normaliseItemQuery(query: ItemQuery): NormalisedItemQuery {
  const words = normaliseWords(query.words);
  requireSomething(
    'searchItems',
    words,
    query.category !== undefined || query.supplier !== undefined,
  );
  return { words, category: query.category, supplier: query.supplier };
}

export function normaliseContactQuery(query: ContactQuery): NormalisedContactQuery {
  const words = normaliseWords(query.words);
  requireSomething('searchContact', words, query.type !== undefined);
  return { words, type: query.type };
}

export function itemSearchKey(query: NormalisedItemQuery, windowOffset: number): string {
  return `item_search|q:${query.words.join(' ')}|category:${query.category ?? ''}|supplier:${query.supplier ?? ''}|at:${windowOffset}`;
}

export function contactSearchKey(query: NormalisedContactQuery, windowOffset: number): string {
  return `contact_search|q:${query.words.join(' ')}|type:${query.type ?? ''}|at:${windowOffset}`;
}
