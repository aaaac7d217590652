/**
 * Answers built from the catalogue index: `/stock categories`, `/stock suppliers`, the
 * supplier a `supplier:WORD` names, and `/stock words` when the index is complete and recent
 * (the ERP's search stays the fallback otherwise).
 */
import { resolveSupplierName } from '../catalogue/suppliers.js';
import { type ItemQuery, SEARCH_PAGE_SIZE } from '../lookup/types.js';
import type { CardQuestion } from '../views/actions.js';
import {
  categoriesList,
  indexedSearchNotice,
  NO_CATALOGUE,
  supplierAmbiguousText,
  supplierNotFoundText,
  supplierResolvedNotice,
  suppliersList,
} from '../views/catalogue.js';
import { noticeMessage } from '../views/feedback.js';
import type { SlackMessage } from '../views/message.js';
import { itemSearchList } from '../views/searchLists.js';
import type { DeliveryDeps, ItemDeps } from './deps.js';

export async function categoriesAnswer(
  deps: Pick<ItemDeps, 'catalogue'> & Pick<DeliveryDeps, 'now'>,
): Promise<SlackMessage> {
  const catalogue = deps.catalogue;
  const status = catalogue?.status();
  return categoriesList({
    categories: catalogue?.categories() ?? [],
    summary: status ?? NO_CATALOGUE,
    now: deps.now(),
  });
}

/** `/stock suppliers`: the suppliers the index knows, with their ids where learned. */
export async function suppliersAnswer(deps: Pick<ItemDeps, 'catalogue'>): Promise<SlackMessage> {
  const catalogue = deps.catalogue;
  return suppliersList({
    suppliers: catalogue?.suppliers() ?? [],
    summary: catalogue?.status() ?? NO_CATALOGUE,
  });
}

type SupplierFilter =
  | { ok: true; id: number; notice: string }
  /** The search is not run: the message says why and names the close suppliers. */
  | { ok: false; message: SlackMessage };

/**
 * `supplier:WORD` as the id the ERP's filter takes, from the suppliers the index learned. A
 * word that fits none, or several, is never dropped silently: the search is not run.
 */
export function supplierFilter(deps: Pick<ItemDeps, 'catalogue'>, typed: string): SupplierFilter {
  const resolved = resolveSupplierName(deps.catalogue?.suppliers() ?? [], typed);
  switch (resolved.kind) {
    case 'found':
      return {
        ok: true,
        id: resolved.id,
        notice: supplierResolvedNotice(resolved.name, resolved.id),
      };
    case 'ambiguous':
      return { ok: false, message: noticeMessage(supplierAmbiguousText(typed, resolved.matches)) };
    case 'unknown':
      return { ok: false, message: noticeMessage(supplierNotFoundText(typed, resolved.close)) };
  }
}

/**
 * The question a code that does not exist was asked (`/stock WIDGT-9 50 perth`): when its
 * search finds nothing, the nearest known codes are offered, each asking the same question.
 */
export interface AskedOfCode {
  code: string;
  question: CardQuestion;
}

/** The list's did-you-mean for an asked code whose search found no row; nothing otherwise. */
export function askedSuggestions(
  deps: Pick<ItemDeps, 'catalogue'>,
  asked: AskedOfCode | undefined,
  rows: readonly unknown[],
): { suggestions?: readonly string[]; suggestionQuestion?: CardQuestion } {
  if (asked === undefined || rows.length > 0) return {};
  const nearest = deps.catalogue?.nearestCodes(asked.code);
  return nearest === undefined ? {} : { suggestions: nearest, suggestionQuestion: asked.question };
}

/**
 * The index's page drawn, with how many rows it found; undefined when the index cannot answer
 * this search faithfully: the ERP answers then.
 */
export function indexedSearchAnswer(
  deps: Pick<ItemDeps, 'catalogue'> & Pick<DeliveryDeps, 'display' | 'now'>,
  query: ItemQuery,
  offset: number,
  asked?: AskedOfCode,
): { message: SlackMessage; found: number } | undefined {
  const indexed = deps.catalogue?.searchPage(query, offset, SEARCH_PAGE_SIZE);
  if (!indexed) return undefined;
  const now = deps.now();
  const oldest = new Date(indexed.oldestSeenAt);
  const message = itemSearchList({
    ...deps.display,
    query,
    page: indexed.page,
    freshness: { fetchedAt: oldest, fromCache: true, stale: false },
    now,
    notice: indexedSearchNotice(oldest),
    ...askedSuggestions(deps, asked, indexed.page.rows),
  });
  return { message, found: indexed.page.rows.length };
}
