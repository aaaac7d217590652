import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { registerActions } from './actions/index.js';
import { registerCommands } from './commands/index.js';
import { registerSearch } from './search/index.js';
import { registerShortcuts } from './shortcuts/index.js';

/** Every listener of the app, for every transport (HTTP, Socket Mode, console). */
export function registerListeners(app: App, deps: ListenerDeps): void {
  registerCommands(app, deps);
  registerActions(app, deps);
  registerShortcuts(app, deps);
  registerSearch(app, deps);
}
