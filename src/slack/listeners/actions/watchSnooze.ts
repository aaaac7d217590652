/**
 * Snooze a day / a week, on a watch list or on the alert: no alerts for that watch until then.
 * Each press is logged with who; the watch's thread says who snoozed it and until when.
 */
import { decodeWatchButton } from '../../../views/watchButtons.js';
import { watchRefusal, watchSnoozed } from '../../../views/watchNotices.js';
import type { ClickArgs } from '../../clicks.js';
import {
  acceptWatchClick,
  mayTouchWatch,
  replyPrivately,
  type WatchClickDeps,
} from './watchClicks.js';

export function watchSnoozeClick(deps: WatchClickDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptWatchClick(deps, args, decodeWatchButton);
    if (click?.state.t !== 'ws') return;
    const { actor, watches, state } = click;
    try {
      if (!(await mayTouchWatch(click, state.w))) {
        deps.logger.info({ user: actor.userId }, 'watch snooze refused: not theirs');
        const reason = actor.channelId === undefined ? 'not_found' : 'not_yours';
        await replyPrivately(deps, args, watchRefusal({ reason }));
        return;
      }
      const snoozed = await watches.service.snooze(state.w, state.d, actor.channelId, actor.userId);
      deps.logger.info(
        { user: actor.userId, days: state.d, snoozed: snoozed !== undefined },
        'watch snooze',
      );
      await replyPrivately(
        deps,
        args,
        snoozed
          ? watchSnoozed(snoozed.watch, snoozed.until, deps.now())
          : watchRefusal({ reason: 'not_found' }),
      );
    } catch (error) {
      deps.logger.warn({ err: { type: (error as Error).name } }, 'watch snooze failed');
      await replyPrivately(deps, args, watchRefusal({ reason: 'store_unavailable' }));
    }
  };
}
