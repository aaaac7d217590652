import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../deps.js';
import { LOOKUP_STOCK_FUNCTION, lookupStockStep } from './lookupStock.js';

/** Workflow Builder custom steps; both manifests declare each under `functions` (a test checks). */
export const FUNCTIONS = [LOOKUP_STOCK_FUNCTION] as const;

export function registerFunctions(app: App, deps: ListenerDeps): void {
  app.function(LOOKUP_STOCK_FUNCTION, lookupStockStep(deps));
}
