/**
 * Remove on a watch list (`/stock watches` in a channel, or App Home): in a channel only that
 * channel's watches; on App Home only the presser's own.
 */
import { decodeWatchButton, watchRefusal, watchRemoved } from '../../../views/watches.js';
import type { ClickArgs } from '../../clicks.js';
import type { DeliveryDeps, WatchDeps } from '../../deps.js';
import { acceptWatchClick, mayTouchWatch, replyPrivately } from './watchClicks.js';

export function watchRemoveClick(deps: DeliveryDeps & WatchDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptWatchClick(deps, args, decodeWatchButton);
    if (click?.state.t !== 'wr') return;
    const { actor, watches, state } = click;
    try {
      if (!(await mayTouchWatch(click, state.w))) {
        await replyPrivately(deps, args, watchRefusal({ reason: 'not_found' }));
        return;
      }
      const removed = await watches.service.remove(state.w, actor.channelId);
      deps.logger.info({ user: actor.userId, removed: removed !== undefined }, 'watch remove');
      await replyPrivately(deps, args, watchRemoved(removed ? [removed] : []));
    } catch (error) {
      deps.logger.warn({ err: { name: (error as Error).name } }, 'watch remove failed');
      await replyPrivately(deps, args, watchRefusal({ reason: 'store_unavailable' }));
    }
  };
}
