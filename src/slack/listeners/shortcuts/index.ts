import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../deps.js';
import { LOOK_UP_STOCK_CALLBACK_ID, lookUpStockShortcut } from './lookUpStock.js';

export const SHORTCUTS = [LOOK_UP_STOCK_CALLBACK_ID] as const;

export function registerShortcuts(app: App, deps: ListenerDeps): void {
  app.shortcut(
    { type: 'message_action', callback_id: LOOK_UP_STOCK_CALLBACK_ID },
    lookUpStockShortcut(deps),
  );
}
