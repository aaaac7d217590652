import { SEARCH } from '../../../views/searchModal.js';
import type { ListenerDeps } from '../../deps.js';
import type { ClickArgs } from '../actions/click.js';
import { categoryChosen, itemChosen } from './modalActions.js';
import { homeSearchButton } from './openSearch.js';

/**
 * The buttons and selects of the search modal and App Home, found by their action id with
 * every other button (`../actions/index.ts`). The modal's shortcut, typeahead and submission,
 * and App Home, are routed in `../router.ts`.
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
