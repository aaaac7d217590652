import type {
  AnyMiddlewareArgs,
  App,
  GlobalShortcut,
  MessageShortcut,
  Middleware,
} from '@slack/bolt';
import type { ListenerDeps } from '../../deps.js';
import { LOOK_UP_STOCK_CALLBACK_ID, lookUpStockShortcut } from './lookUpStock.js';
import { STOCK_SEARCH_CALLBACK_ID, searchStockShortcut } from './searchStock.js';

/** The message shortcut answers through its response_url; the global one opens a modal. */
export function registerShortcuts(
  app: App,
  deps: ListenerDeps,
  screen: Middleware<AnyMiddlewareArgs>,
): void {
  app.shortcut<MessageShortcut>(
    { type: 'message_action', callback_id: LOOK_UP_STOCK_CALLBACK_ID },
    screen,
    lookUpStockShortcut(deps),
  );
  app.shortcut<GlobalShortcut>(
    { type: 'shortcut', callback_id: STOCK_SEARCH_CALLBACK_ID },
    searchStockShortcut(deps),
  );
}
