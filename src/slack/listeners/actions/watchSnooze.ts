/** Snooze a day / a week on a watch list: no alerts for that watch until then. */
import { decodeWatchButton, watchRefusal, watchSnoozed } from '../../../views/watches.js';
import type { ClickArgs } from '../../clicks.js';
import type { DeliveryDeps, WatchDeps } from '../../deps.js';
import { acceptWatchClick, mayTouchWatch, replyPrivately } from './watchClicks.js';

export function watchSnoozeClick(deps: DeliveryDeps & WatchDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptWatchClick(deps, args, decodeWatchButton);
    if (click?.state.t !== 'ws') return;
    const { actor, watches, state } = click;
    try {
      if (!(await mayTouchWatch(click, state.w))) {
        await replyPrivately(deps, args, watchRefusal({ reason: 'not_found' }));
        return;
      }
      const snoozed = await watches.service.snooze(state.w, state.d, actor.channelId);
      await replyPrivately(
        deps,
        args,
        snoozed
          ? watchSnoozed(snoozed.watch, snoozed.until)
          : watchRefusal({ reason: 'not_found' }),
      );
    } catch (error) {
      deps.logger.warn({ err: { name: (error as Error).name } }, 'watch snooze failed');
      await replyPrivately(deps, args, watchRefusal({ reason: 'store_unavailable' }));
    }
  };
}
