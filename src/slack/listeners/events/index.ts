import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../deps.js';
import { appHomeOpened } from './appHomeOpened.js';
import { watchAppGone, watchChannelGone } from './watchCleanup.js';

export function registerEvents(app: App, deps: ListenerDeps): void {
  app.event('app_home_opened', appHomeOpened(deps));
  app.event('channel_archive', watchChannelGone(deps, 'channel_archive'));
  app.event('group_archive', watchChannelGone(deps, 'group_archive'));
  app.event('channel_deleted', watchChannelGone(deps, 'channel_deleted'));
  app.event('app_uninstalled', watchAppGone(deps));
  app.event('tokens_revoked', watchAppGone(deps));
}
