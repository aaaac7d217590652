import type { AnyMiddlewareArgs, App, BlockAction, Middleware } from '@slack/bolt';
import { ACTION } from '../../../views/actions.js';
import { HOME_RECENT_ACTION } from '../../../views/appHome.js';
import { FIND_CONTACT } from '../../../views/findContactModal.js';
import { SEARCH } from '../../../views/searchModal.js';
import { SHARED_REMOVE_ACTION } from '../../../views/sharedBy.js';
import { SET_WATCH_ACTION } from '../../../views/words.js';
import type { ClickArgs } from '../../clicks.js';
import type { ListenerDeps } from '../../deps.js';
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
      ACTION.itemPart,
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
  [[SET_WATCH_ACTION], setWatchClick],
];

/** Watch buttons carry the watch id in their action id (`watch_remove:<id>`), not a number. */
const WATCH_LISTENERS: ReadonlyArray<readonly [RegExp, ActionListener]> = [
  [/^watch_(?:remove|stop)(?::|$)/, watchRemoveClick],
  [/^watch_remove_all$/, watchRemoveClick],
  [/^watch_snooze(?::|$)/, watchSnoozeClick],
  [/^watch_open(?::\d+)?$/, watchOpenClick],
];

/**
 * One Bolt listener for every button of the app, matched by a pattern of all their ids.
 * Bolt runs each registered listener's matchers on every request, so one pattern listener
 * instead of one per callback keeps a cached answer's dispatch cheap (a profile of a cached
 * /stock showed Bolt's listener chain growing with their number); the table above still says
 * which callback answers which id.
 */
export function registerActions(
  app: App,
  deps: ListenerDeps,
  screen: Middleware<AnyMiddlewareArgs>,
): void {
  const routes = [
    ...ACTION_LISTENERS.map(([ids, listener]) => [actionIds(...ids), listener(deps)] as const),
    ...WATCH_LISTENERS.map(([pattern, listener]) => [pattern, listener(deps)] as const),
  ];
  const any = new RegExp(routes.map(([pattern]) => `(?:${pattern.source})`).join('|'));
  app.action<BlockAction>({ type: 'block_actions', action_id: any }, screen, async (args) => {
    const id = args.action.action_id;
    const route = routes.find(([pattern]) => pattern.test(id));
    await route?.[1](args);
  });
}
