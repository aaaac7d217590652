/**
 * The shortcuts, the search modal's typeahead and submission, and App Home: one global
 * middleware instead of four Bolt listeners. Bolt runs every registered listener's middleware
 * chain on every request; a heap sampling profile of a cached /stock showed Bolt's listener
 * dispatch allocating 17 KB a request with six listeners against 3 KB with one. So commands
 * and buttons, the busy paths, keep the only two listeners, and these rarer requests are
 * matched here as Bolt's own constraints matched them (payload type, then callback or action
 * id). Anything else goes on to the listeners.
 */
import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  App,
  GlobalShortcut,
  MessageShortcut,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackShortcut,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { SEARCH } from '../../views/searchModal.js';
import type { ListenerDeps } from '../deps.js';
import { appHomeOpened } from './search/appHome.js';
import { shareFromModal } from './search/modalActions.js';
import { STOCK_SEARCH_CALLBACK_ID, searchShortcut } from './search/openSearch.js';
import { itemSuggestions } from './search/suggestions.js';
import { LOOK_UP_STOCK_CALLBACK_ID, lookUpStockShortcut } from './shortcuts/lookUpStock.js';

/** The message shortcut "Look up stock", the global "Search stock", the modal, App Home. */
export function registerInteractions(app: App, deps: ListenerDeps): void {
  const lookUp = lookUpStockShortcut(deps);
  const search = searchShortcut(deps);
  const suggest = itemSuggestions(deps);
  const submit = shareFromModal(deps);
  const home = appHomeOpened(deps);
  app.use(async (args) => {
    // Narrowed apart: TypeScript cannot narrow the intersection of Bolt's argument unions.
    const slack: AnyMiddlewareArgs = args;
    const bolt: AllMiddlewareArgs = args;
    if (isShortcut(slack, 'message_action', LOOK_UP_STOCK_CALLBACK_ID))
      await lookUp({ ...bolt, ...slack });
    else if (isShortcut(slack, 'shortcut', STOCK_SEARCH_CALLBACK_ID))
      await search({ ...bolt, ...slack });
    else if (isSuggestion(slack, SEARCH.itemAction)) await suggest({ ...bolt, ...slack });
    else if (isSubmission(slack, SEARCH.callbackId)) await submit({ ...bolt, ...slack });
    else if (isHomeOpened(slack)) await home({ ...bolt, ...slack });
    else await args.next();
  });
}

type ShortcutOf<T> = T extends 'message_action' ? MessageShortcut : GlobalShortcut;

function isShortcut<T extends SlackShortcut['type']>(
  args: AnyMiddlewareArgs,
  type: T,
  callbackId: string,
): args is SlackShortcutMiddlewareArgs<ShortcutOf<T>> {
  return (
    'shortcut' in args && args.shortcut.type === type && args.shortcut.callback_id === callbackId
  );
}

function isSuggestion(
  args: AnyMiddlewareArgs,
  actionId: string,
): args is SlackOptionsMiddlewareArgs<'block_suggestion'> {
  return (
    'options' in args &&
    args.options.type === 'block_suggestion' &&
    args.options.action_id === actionId
  );
}

function isSubmission(
  args: AnyMiddlewareArgs,
  callbackId: string,
): args is SlackViewMiddlewareArgs<ViewSubmitAction> {
  return (
    'view' in args && args.body.type === 'view_submission' && args.view.callback_id === callbackId
  );
}

function isHomeOpened(
  args: AnyMiddlewareArgs,
): args is SlackEventMiddlewareArgs<'app_home_opened'> {
  return 'event' in args && args.event.type === 'app_home_opened';
}
