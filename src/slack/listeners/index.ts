import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { registerRouter } from './router.js';

/**
 * Every listener of the app, for every transport (HTTP, Socket Mode, console): one global
 * middleware routes each request to its handler (router.ts says why there are no Bolt
 * listeners).
 */
export function registerListeners(app: App, deps: ListenerDeps): void {
  registerRouter(app, deps);
}
