import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { registerActions } from './actions/index.js';
import { registerCommands } from './commands/index.js';
import { registerInteractions } from './interactions.js';

/**
 * Every listener of the app, for every transport (HTTP, Socket Mode, console): two Bolt
 * listeners (commands, buttons) and one middleware for the rest (interactions.ts says why).
 */
export function registerListeners(app: App, deps: ListenerDeps): void {
  registerInteractions(app, deps);
  registerCommands(app, deps);
  registerActions(app, deps);
}
