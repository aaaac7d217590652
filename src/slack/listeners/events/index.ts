import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../deps.js';
import { appHomeOpened } from './appHomeOpened.js';

export function registerEvents(app: App, deps: ListenerDeps): void {
  app.event('app_home_opened', appHomeOpened(deps));
}
