import type {
  AllMiddlewareArgs,
  App,
  GlobalShortcut,
  MessageShortcut,
  SlackShortcut,
  SlackShortcutMiddlewareArgs,
} from '@slack/bolt';
import type { ListenerDeps } from '../../deps.js';
import { STOCK_SEARCH_CALLBACK_ID, searchShortcut } from '../search/openSearch.js';
import { LOOK_UP_STOCK_CALLBACK_ID, lookUpStockShortcut } from './lookUpStock.js';

export const SHORTCUTS = [LOOK_UP_STOCK_CALLBACK_ID] as const;

/**
 * One Bolt listener for both shortcuts (every registered listener costs every request): the
 * message shortcut "Look up stock" and the global "Search stock" (issue 16's modal).
 */
export function registerShortcuts(app: App, deps: ListenerDeps): void {
  const lookUp = lookUpStockShortcut(deps);
  const search = searchShortcut(deps);
  app.shortcut(
    new RegExp(`^(${LOOK_UP_STOCK_CALLBACK_ID}|${STOCK_SEARCH_CALLBACK_ID})$`),
    async (args) => {
      if (is(args, 'message_action', LOOK_UP_STOCK_CALLBACK_ID)) await lookUp(args);
      else if (is(args, 'shortcut', STOCK_SEARCH_CALLBACK_ID)) await search(args);
    },
  );
}

type Args<S extends SlackShortcut> = SlackShortcutMiddlewareArgs<S> & AllMiddlewareArgs;
type ShortcutOf<T> = T extends 'message_action' ? MessageShortcut : GlobalShortcut;

function is<T extends SlackShortcut['type']>(
  args: Args<SlackShortcut>,
  type: T,
  callbackId: string,
): args is Args<ShortcutOf<T>> {
  return args.shortcut.type === type && args.shortcut.callback_id === callbackId;
}
