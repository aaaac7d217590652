import type { App } from '@slack/bolt';
import { SEARCH } from '../../../views/searchModal.js';
import type { ListenerDeps } from '../../deps.js';
import { appHomeOpened } from './appHome.js';
import { categoryChosen, itemChosen, shareFromModal } from './modalActions.js';
import { homeSearchButton, STOCK_SEARCH_CALLBACK_ID, searchShortcut } from './openSearch.js';
import { itemSuggestions } from './suggestions.js';

/** Issue 16: the "Search stock" modal, its typeahead, and App Home. */
export function registerSearch(app: App, deps: ListenerDeps): void {
  app.shortcut({ type: 'shortcut', callback_id: STOCK_SEARCH_CALLBACK_ID }, searchShortcut(deps));
  app.action({ type: 'block_actions', action_id: SEARCH.homeButton }, homeSearchButton(deps));
  app.options({ type: 'block_suggestion', action_id: SEARCH.itemAction }, itemSuggestions(deps));
  app.action({ type: 'block_actions', action_id: SEARCH.categoryAction }, categoryChosen(deps));
  app.action({ type: 'block_actions', action_id: SEARCH.itemAction }, itemChosen(deps));
  app.view({ type: 'view_submission', callback_id: SEARCH.callbackId }, shareFromModal(deps));
  app.event('app_home_opened', appHomeOpened(deps));
}
