/**
 * Every request from Slack, from every transport, is routed here: one global middleware and
 * no Bolt listeners. Bolt runs every registered listener's middleware chain on every request
 * (a copy of the chain, a spread of the arguments, a matcher and a promise each); a heap
 * sampling profile of a cached /stock showed Bolt's listener dispatch allocating 17 KB a
 * request with six listeners and 10 KB with two, and nothing with none (58 against 43 KB a
 * request in all; a bare Bolt app answering a constant, 38). Requests are matched here as
 * Bolt's own constraints matched them: payload type, then the command name, action id or
 * callback id. Anything else goes on (`next()`), and, with no listener behind, is left
 * unanswered as Bolt leaves a request no listener matched.
 */
import type {
  AllMiddlewareArgs,
  AnyMiddlewareArgs,
  App,
  BlockAction,
  GlobalShortcut,
  MessageShortcut,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackShortcut,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { SEARCH } from '../../views/searchModal.js';
import type { ListenerDeps } from '../deps.js';
import { actionHandler } from './actions/index.js';
import { commandHandlers } from './commands/index.js';
import { appHomeOpened } from './search/appHome.js';
import { shareFromModal } from './search/modalActions.js';
import { STOCK_SEARCH_CALLBACK_ID, searchShortcut } from './search/openSearch.js';
import { itemSuggestions } from './search/suggestions.js';
import { LOOK_UP_STOCK_CALLBACK_ID, lookUpStockShortcut } from './shortcuts/lookUpStock.js';

type Args = AnyMiddlewareArgs & AllMiddlewareArgs;
type With<T> = T & AllMiddlewareArgs;

/** Commands, buttons, both shortcuts, the search modal's typeahead and submission, App Home. */
export function registerRouter(app: App, deps: ListenerDeps): void {
  const commands = commandHandlers(deps);
  const action = actionHandler(deps);
  const lookUp = lookUpStockShortcut(deps);
  const search = searchShortcut(deps);
  const suggest = itemSuggestions(deps);
  const submit = shareFromModal(deps);
  const home = appHomeOpened(deps);
  /** The handler's answer, or undefined for a request no handler takes. */
  const route = (args: Args): Promise<void> | undefined => {
    if (isCommand(args)) return commands.get(args.command.command)?.(args);
    if (isBlockAction(args)) return action(args.action.action_id)?.(args);
    if (isShortcut(args, 'message_action', LOOK_UP_STOCK_CALLBACK_ID)) return lookUp(args);
    if (isShortcut(args, 'shortcut', STOCK_SEARCH_CALLBACK_ID)) return search(args);
    if (isSuggestion(args, SEARCH.itemAction)) return suggest(args);
    if (isSubmission(args, SEARCH.callbackId)) return submit(args);
    if (isHomeOpened(args)) return home(args);
    return undefined;
  };
  app.use(async (args) => {
    const handled = route(args);
    if (handled) await handled;
    else await args.next();
  });
}

function isCommand(args: Args): args is With<SlackCommandMiddlewareArgs> {
  return 'command' in args && args.command !== undefined;
}

function isBlockAction(args: Args): args is With<SlackActionMiddlewareArgs<BlockAction>> {
  return 'action' in args && args.body.type === 'block_actions';
}

type ShortcutOf<T> = T extends 'message_action' ? MessageShortcut : GlobalShortcut;

function isShortcut<T extends SlackShortcut['type']>(
  args: Args,
  type: T,
  callbackId: string,
): args is With<SlackShortcutMiddlewareArgs<ShortcutOf<T>>> {
  return (
    'shortcut' in args && args.shortcut.type === type && args.shortcut.callback_id === callbackId
  );
}

function isSuggestion(
  args: Args,
  actionId: string,
): args is With<SlackOptionsMiddlewareArgs<'block_suggestion'>> {
  return (
    'options' in args &&
    args.options.type === 'block_suggestion' &&
    args.options.action_id === actionId
  );
}

function isSubmission(
  args: Args,
  callbackId: string,
): args is With<SlackViewMiddlewareArgs<ViewSubmitAction>> {
  return (
    'view' in args && args.body.type === 'view_submission' && args.view.callback_id === callbackId
  );
}

function isHomeOpened(args: Args): args is With<SlackEventMiddlewareArgs<'app_home_opened'>> {
  return 'event' in args && args.event.type === 'app_home_opened';
}
