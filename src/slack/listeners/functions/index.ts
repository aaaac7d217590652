import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../deps.js';
import { LOOKUP_STOCK_FUNCTION, lookupStockStep } from './lookupStock.js';

export function registerFunctions(app: App, deps: ListenerDeps): void {
  app.function(LOOKUP_STOCK_FUNCTION, lookupStockStep(deps));
}
