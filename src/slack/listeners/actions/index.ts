import type { App, BlockAction } from '@slack/bolt';
import { ACTION } from '../../../views/actions.js';
import { HOME_RECENT_ACTION } from '../../../views/appHome.js';
import { FIND_CONTACT } from '../../../views/findContact.js';
import { SEARCH } from '../../../views/searchModal.js';
import { SHARED_REMOVE_ACTION } from '../../../views/sharedBy.js';
import type { ClickArgs } from '../../clicks.js';
import type { ListenerDeps } from '../../deps.js';
import { contactCardClick } from './contactCard.js';
import { contactPageClick } from './contactPage.js';
import { findContactClick } from './findContact.js';
import { homeRecentClick } from './homeRecent.js';
import { itemCardClick } from './itemCard.js';
import { itemPageClick } from './itemPage.js';
import { openSearchClick } from './openSearch.js';
import { removeSharedClick } from './removeShared.js';
import { revealClick } from './reveal.js';
import { searchCategoryChosen } from './searchCategory.js';
import { searchItemChosen } from './searchItem.js';
import { shareClick } from './share.js';
import { watchOpenClick } from './watchOpen.js';
import { watchRemoveClick } from './watchRemove.js';
import { watchSnoozeClick } from './watchSnooze.js';

/**
 * Any of these action ids, each with or without the `:n` that tells two buttons of one
 * message apart: one listener for the buttons one callback answers.
 */
export const actionIds = (...ids: string[]): RegExp =>
  new RegExp(`^(?:${ids.join('|')})(?::\\d+)?$`);

type ActionListener = (deps: ListenerDeps) => (args: ClickArgs) => Promise<void>;

/** Each callback and the action ids it answers. */
export const ACTION_LISTENERS: ReadonlyArray<readonly [readonly string[], ActionListener]> = [
  [
    [
      ACTION.itemView,
      ACTION.itemExpand,
      ACTION.itemBomPage,
      ACTION.itemAllBranches,
      ACTION.itemBranchPage,
      ACTION.itemRefresh,
    ],
    itemCardClick,
  ],
  [[ACTION.itemNextPage, ACTION.itemPrevPage], itemPageClick],
  [[ACTION.contactView, ACTION.contactPeoplePage, ACTION.contactRefresh], contactCardClick],
  [[ACTION.contactNextPage, ACTION.contactPrevPage], contactPageClick],
  [[ACTION.itemShare, ACTION.contactShare], shareClick],
  [[ACTION.contactReveal], revealClick],
  [[SHARED_REMOVE_ACTION], removeSharedClick],
  [[SEARCH.homeButton], openSearchClick],
  [[FIND_CONTACT.homeButton], findContactClick],
  [[HOME_RECENT_ACTION], homeRecentClick],
  [[SEARCH.categoryAction], searchCategoryChosen],
  [[SEARCH.itemAction], searchItemChosen],
];

export function registerActions(app: App, deps: ListenerDeps): void {
  for (const [ids, listener] of ACTION_LISTENERS) {
    app.action<BlockAction>(
      { type: 'block_actions', action_id: actionIds(...ids) },
      listener(deps),
    );
  }
  // Watch buttons carry the watch id in their action id (`watch_remove:<id>`), not a number.
  app.action<BlockAction>(
    { type: 'block_actions', action_id: /^watch_remove(?::|$)/ },
    watchRemoveClick(deps),
  );
  app.action<BlockAction>(
    { type: 'block_actions', action_id: /^watch_snooze(?::|$)/ },
    watchSnoozeClick(deps),
  );
  app.action<BlockAction>(
    { type: 'block_actions', action_id: /^watch_open(?::\d+)?$/ },
    watchOpenClick(deps),
  );
}
