/**
 * Search pages are cut from larger upstream windows, so "Next" rarely costs a search
 * (the ERP allows 20 searches a minute against 60 lookups).
 */
import type { ErpEndpoint } from '../erp/errors.js';
import { InputError, type Page, SEARCH_PAGE_SIZE, SEARCH_WINDOW_SIZE } from './types.js';

/** Rows of one upstream window and the ERP's `count` for it. */
export interface SearchWindow<T> {
  rows: readonly T[];
  count: number;
}

export function checkOffset(endpoint: ErpEndpoint, offset: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new InputError('bad_offset', endpoint);
  }
}

/** The window-aligned upstream offset that holds the page starting at `offset`. */
export function windowStart(offset: number): number {
  return Math.floor(offset / SEARCH_WINDOW_SIZE) * SEARCH_WINDOW_SIZE;
}

export function pageFromWindow<T>(
  window: SearchWindow<T>,
  windowOffset: number,
  offset: number,
): Page<T> {
  const start = offset - windowOffset;
  const rows = window.rows.slice(start, start + SEARCH_PAGE_SIZE);
  // The spec does not say whether `count` is a total or the page size: a full window means
  // "maybe more", and `count` only ever adds a total when it is clearly one.
  const windowFull = window.rows.length >= SEARCH_WINDOW_SIZE;
  const moreInWindow = start + SEARCH_PAGE_SIZE < window.rows.length;
  // A short window is the last one, so it tells the total by itself, whatever `count` means.
  // After a full window, `count` is a total only when it is more than the rows seen so far: a
  // page-size `count` (the rows, or the `limit` we asked for) never is.
  const seen = windowOffset + window.rows.length;
  const total = !windowFull ? seen : window.count > seen ? window.count : undefined;
  return {
    rows,
    offset,
    pageSize: SEARCH_PAGE_SIZE,
    hasPrevious: offset > 0,
    hasNext: moreInWindow || windowFull,
    total,
  };
}
