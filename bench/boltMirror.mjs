/**
 * The app's listener set with no-op callbacks: the same Bolt listeners and listener
 * middleware, of the same kinds, in the same order, as `registerListeners` registers. Bolt
 * runs every listener's matchers on every request, so a bare Bolt app with these shows what
 * Bolt's dispatch costs for the app's surfaces, apart from what the app's own code costs
 * (docs/benchmarks.md). test/bench/boltMirror.unit.test.ts keeps it in step with the app.
 */
import { Assistant } from '@slack/bolt';

const noop = async () => {};

/** How many Bolt listeners the app (and so this mirror) registers. */
export const MIRRORED_LISTENERS = 32;

/**
 * @param {import('@slack/bolt').App} app
 * @param {import('@slack/bolt').Middleware<import('@slack/bolt').SlackCommandMiddlewareArgs>} stock
 *   the one listener that answers, in /stock's place
 */
export function mirrorAppListeners(app, stock) {
  // The response_url screen: listener middleware of the listeners whose payloads carry one.
  const screen = async ({ next }) => {
    await next();
  };
  // listeners/commands
  app.command('/stock', screen, stock);
  app.command('/contact', screen, noop);
  // listeners/actions: one listener per callback, a string id or a pattern of a family of ids,
  // in the order and of the kinds listeners/actions/index.ts registers them
  const ids = [
    /^(?:mirror_a(?::\d+)?|mirror_b)$/, // item card
    /^(?:mirror_c(?::\d+)?|mirror_d)$/, // contact card
    /^(?:mirror_e|mirror_f)$/, // share
    'mirror_reveal',
    'mirror_shared_remove',
    'mirror_retry', // Try again on a failed command
    /^(?:mirror_prev|mirror_next)$/, // item paging
    /^(?:mirror_prev_c|mirror_next_c)$/, // contact paging
    'mirror_home_search',
    'mirror_home_contact',
    /^(?:mirror_recent(?::\d+)?)$/,
    'mirror_category',
    'mirror_item',
    'mirror_set_watch',
    /^(?:mirror_remove(?::[\s\S]*)?|mirror_stop(?::[\s\S]*)?|mirror_remove_all)$/,
    /^(?:mirror_snooze(?::[\s\S]*)?)$/,
    'mirror_watch_open',
    /^(?:mirror_replace|mirror_keep)$/, // Replace or Cancel a second watch on one key
  ];
  for (const id of ids) app.action(id, screen, noop);
  // listeners/shortcuts
  app.shortcut({ type: 'message_action', callback_id: 'mirror_message' }, screen, noop);
  app.shortcut({ type: 'shortcut', callback_id: 'mirror_global' }, noop);
  // listeners/views
  app.view({ type: 'view_submission', callback_id: 'mirror_view_a' }, screen, noop);
  app.view({ type: 'view_submission', callback_id: 'mirror_view_b' }, screen, noop);
  app.view({ type: 'view_submission', callback_id: 'mirror_view_c' }, screen, noop);
  // listeners/options
  app.options({ type: 'block_suggestion', action_id: 'mirror_suggest' }, noop);
  // listeners/events
  app.event('app_home_opened', noop);
  // Asking in words: the assistant surface is global middleware; mentions and direct messages
  // are two event listeners.
  app.assistant(new Assistant({ threadStarted: noop, userMessage: noop }));
  app.event('app_mention', noop);
  app.event('message', noop);
  app.event(/^(?:channel_archive|group_archive|channel_deleted)$/, noop);
  app.event(/^(?:app_uninstalled|tokens_revoked)$/, noop);
  // listeners/functions
  app.function('mirror_step', noop);
}
