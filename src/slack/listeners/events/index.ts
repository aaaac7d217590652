import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../deps.js';
import { messageGate } from '../../words/once.js';
import { appHomeOpened } from './appHomeOpened.js';
import { wordsAssistant } from './assistant.js';
import { watchAppGone, watchChannelGone } from './watchCleanup.js';
import { directMessage, mention } from './words.js';

/**
 * The events that end watches share a pattern listener each (Bolt runs every listener's
 * matchers on every request, so fewer listeners keep a cached answer cheap).
 */
export function registerEvents(app: App, deps: ListenerDeps): void {
  app.event('app_home_opened', appHomeOpened(deps));
  // Asking in words: one gate, so a message is answered once whichever listener sees it.
  const once = deps.words?.once ?? messageGate();
  app.assistant(wordsAssistant(deps, once));
  app.event('app_mention', mention(deps, once));
  app.event('message', directMessage(deps, once));
  const channelGone = {
    channel_archive: watchChannelGone(deps, 'channel_archive'),
    group_archive: watchChannelGone(deps, 'group_archive'),
    channel_deleted: watchChannelGone(deps, 'channel_deleted'),
  };
  app.event(/^(?:channel_archive|group_archive|channel_deleted)$/, async (args) => {
    const type = args.event.type;
    if (type === 'channel_archive' || type === 'group_archive' || type === 'channel_deleted') {
      await channelGone[type](args);
    }
  });
  app.event(/^(?:app_uninstalled|tokens_revoked)$/, watchAppGone(deps));
}
