/** The global shortcut "Search stock" (callback_id `stock_search`): opens the search modal. */
import type { AllMiddlewareArgs, GlobalShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';
import { openSearchModal } from '../../modals.js';

export const STOCK_SEARCH_CALLBACK_ID = 'stock_search';

export function searchStockShortcut(deps: DeliveryDeps & ItemDeps) {
  return async ({
    shortcut,
    ack,
    client,
  }: SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    await openSearchModal(deps, client, shortcut);
  };
}
