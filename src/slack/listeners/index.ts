import type { AnyMiddlewareArgs, App, Middleware } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { registerActions } from './actions/index.js';
import { registerCommands } from './commands/index.js';
import { registerEvents } from './events/index.js';
import { registerFunctions } from './functions/index.js';
import { registerOptions } from './options/index.js';
import { registerShortcuts } from './shortcuts/index.js';
import { registerViews } from './views/index.js';

/**
 * Every listener of the app, for every transport (HTTP, Socket Mode, the console), registered
 * with Bolt's own API: each folder's index maps ids to callbacks, one callback a file.
 * `screen` is the listener middleware that every listener whose payloads carry a
 * response_url runs first.
 */
export function registerListeners(
  app: App,
  deps: ListenerDeps,
  screen: Middleware<AnyMiddlewareArgs>,
): void {
  registerCommands(app, deps, screen);
  registerActions(app, deps, screen);
  registerShortcuts(app, deps, screen);
  registerViews(app, deps, screen);
  registerOptions(app, deps);
  registerEvents(app, deps);
  registerFunctions(app, deps);
}
