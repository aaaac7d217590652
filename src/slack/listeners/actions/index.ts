import type { AnyMiddlewareArgs, App, BlockAction, Middleware } from '@slack/bolt';
import { ACTION } from '../../../views/actions.js';
import { HOME_RECENT_ACTION } from '../../../views/appHome.js';
import { FIND_CONTACT } from '../../../views/findContactModal.js';
import { SEARCH } from '../../../views/searchModal.js';
import { SHARED_REMOVE_ACTION } from '../../../views/sharedBy.js';
import { WATCH_ACTION } from '../../../views/watchButtons.js';
import { SET_WATCH_ACTION } from '../../../views/words.js';
import type { ListenerDeps } from '../../deps.js';
import { commandRetryClick } from './commandRetry.js';
import { contactCardClick } from './contactCard.js';
import { contactPageClick } from './contactPage.js';
import { homeRecentClick } from './homeRecent.js';
import { itemCardClick } from './itemCard.js';
import { itemPageClick } from './itemPage.js';
import { findContactClick } from './openFindContact.js';
import { openSearchClick } from './openSearch.js';
import { removeSharedClick } from './removeShared.js';
import { revealClick } from './reveal.js';
import { searchCategoryChosen } from './searchCategory.js';
import { searchItemChosen } from './searchItem.js';
import { setWatchClick } from './setWatch.js';
import { shareClick } from './share.js';
import { watchOpenClick } from './watchOpen.js';
import { watchRemoveClick } from './watchRemove.js';
import { watchReplaceClick } from './watchReplace.js';
import { watchSnoozeClick } from './watchSnooze.js';

/** An action id pattern: any of these alternatives, the whole id. */
const anyOf = (...alternatives: string[]): RegExp => new RegExp(`^(?:${alternatives.join('|')})$`);

/** The id alone or with the `:n` that tells two buttons of one message apart (`stock_view:3`). */
const numbered = (id: string): string => `${id}(?::\\d+)?`;

/** The id alone or with the watch it acts on (`watch_remove:<id>`, `watch_snooze:<id>:<days>`). */
const withWatchId = (id: string): string => `${id}(?::[\\s\\S]*)?`;

/**
 * One Bolt listener per callback, each naming the action ids it answers: a string where one
 * id is meant, a pattern where a callback answers a family of ids. Every button listener runs
 * the response_url `screen` first.
 */
export function registerActions(
  app: App,
  deps: ListenerDeps,
  screen: Middleware<AnyMiddlewareArgs>,
): void {
  // Item and contact cards.
  app.action<BlockAction>(
    anyOf(
      numbered(ACTION.itemView),
      numbered(ACTION.itemExpand),
      numbered(ACTION.itemBomPage),
      ACTION.itemAllBranches,
      numbered(ACTION.itemBranchPage),
      ACTION.itemRefresh,
      numbered(ACTION.itemPart),
    ),
    screen,
    itemCardClick(deps),
  );
  app.action<BlockAction>(
    anyOf(numbered(ACTION.contactView), numbered(ACTION.contactPeoplePage), ACTION.contactRefresh),
    screen,
    contactCardClick(deps),
  );
  app.action<BlockAction>(anyOf(ACTION.itemShare, ACTION.contactShare), screen, shareClick(deps));
  app.action<BlockAction>(ACTION.contactReveal, screen, revealClick(deps));
  app.action<BlockAction>(SHARED_REMOVE_ACTION, screen, removeSharedClick(deps));
  app.action<BlockAction>(ACTION.commandRetry, screen, commandRetryClick(deps));

  // Paging a search list.
  app.action<BlockAction>(
    anyOf(ACTION.itemPrevPage, ACTION.itemNextPage),
    screen,
    itemPageClick(deps),
  );
  app.action<BlockAction>(
    anyOf(ACTION.contactPrevPage, ACTION.contactNextPage),
    screen,
    contactPageClick(deps),
  );

  // App Home and the modals it opens.
  app.action<BlockAction>(SEARCH.homeButton, screen, openSearchClick(deps));
  app.action<BlockAction>(FIND_CONTACT.homeButton, screen, findContactClick(deps));
  app.action<BlockAction>(anyOf(numbered(HOME_RECENT_ACTION)), screen, homeRecentClick(deps));
  app.action<BlockAction>(SEARCH.categoryAction, screen, searchCategoryChosen(deps));
  // Try again after a card failed in the modal is the same as choosing that item again.
  app.action<BlockAction>(
    anyOf(SEARCH.itemAction, SEARCH.retryAction),
    screen,
    searchItemChosen(deps),
  );

  // Watches.
  app.action<BlockAction>(SET_WATCH_ACTION, screen, setWatchClick(deps));
  app.action<BlockAction>(
    anyOf(withWatchId(WATCH_ACTION.remove), withWatchId(WATCH_ACTION.stop), WATCH_ACTION.removeAll),
    screen,
    watchRemoveClick(deps),
  );
  app.action<BlockAction>(anyOf(withWatchId(WATCH_ACTION.snooze)), screen, watchSnoozeClick(deps));
  app.action<BlockAction>(WATCH_ACTION.open, screen, watchOpenClick(deps));
  app.action<BlockAction>(
    anyOf(WATCH_ACTION.replace, WATCH_ACTION.keep),
    screen,
    watchReplaceClick(deps),
  );
}
