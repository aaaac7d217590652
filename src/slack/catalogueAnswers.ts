/**
 * Answers built from the catalogue index: `/stock categories`, and `/stock words`
 * when the index is complete and recent (the ERP's search stays the fallback otherwise).
 */
import type { ItemQuery } from '../lookup/types.js';
import { SEARCH_PAGE_SIZE } from '../lookup/types.js';
import { categoriesList, indexedSearchNotice, NO_CATALOGUE } from '../views/catalogue.js';
import type { SlackMessage } from '../views/message.js';
import { itemSearchList } from '../views/searchLists.js';
import type { ListenerDeps } from './deps.js';

export async function categoriesAnswer(
  deps: Pick<ListenerDeps, 'catalogue' | 'now'>,
): Promise<SlackMessage> {
  const catalogue = deps.catalogue;
  const status = catalogue?.status();
  return categoriesList({
    categories: catalogue?.categories() ?? [],
    summary: status ?? NO_CATALOGUE,
    now: deps.now(),
  });
}

/** Undefined when the index cannot answer this search faithfully: the ERP answers then. */
export function indexedSearchAnswer(
  deps: Pick<ListenerDeps, 'catalogue' | 'display' | 'now'>,
  query: ItemQuery,
  offset: number,
): SlackMessage | undefined {
  const indexed = deps.catalogue?.searchPage(query, offset, SEARCH_PAGE_SIZE);
  if (!indexed) return undefined;
  const now = deps.now();
  const oldest = new Date(indexed.oldestSeenAt);
  return itemSearchList({
    ...deps.display,
    query,
    page: indexed.page,
    freshness: { fetchedAt: oldest, fromCache: true, stale: false },
    now,
    notice: indexedSearchNotice(oldest),
  });
}
