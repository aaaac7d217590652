import type { App } from '@slack/bolt';
import { SEARCH } from '../../../views/searchModal.js';
import type { ListenerDeps } from '../../deps.js';
import type { ClickArgs } from '../actions/click.js';
import { appHomeOpened } from './appHome.js';
import { categoryChosen, itemChosen, shareFromModal } from './modalActions.js';
import { homeSearchButton } from './openSearch.js';
import { itemSuggestions } from './suggestions.js';

/**
 * The buttons and selects of the search modal and App Home. They are answered by the one
 * action listener of `../actions/index.ts`: every registered listener costs every request.
 */
export function searchActionHandlers(
  deps: ListenerDeps,
): Record<string, (args: ClickArgs) => Promise<void>> {
  return {
    [SEARCH.homeButton]: homeSearchButton(deps),
    [SEARCH.categoryAction]: categoryChosen(deps),
    [SEARCH.itemAction]: itemChosen(deps),
  };
}

/**
 * Issue 16: the "Search stock" modal's typeahead and submission, and App Home. Its shortcut
 * shares the one shortcut listener of `../shortcuts/index.ts`.
 */
export function registerSearch(app: App, deps: ListenerDeps): void {
  app.options({ type: 'block_suggestion', action_id: SEARCH.itemAction }, itemSuggestions(deps));
  app.view({ type: 'view_submission', callback_id: SEARCH.callbackId }, shareFromModal(deps));
  app.event('app_home_opened', appHomeOpened(deps));
}
