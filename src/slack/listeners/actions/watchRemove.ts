/**
 * Remove (a watch list or App Home), Stop watching (on the alert) and Remove all (after an
 * unwatch that matched several): in a channel only that channel's watches; on App Home only
 * the presser's own. Each press is logged with who; the watch's thread says who stopped it.
 */
import { decodeWatchButton } from '../../../views/watchButtons.js';
import { watchRefusal, watchRemoved } from '../../../views/watchNotices.js';
import type { ClickArgs } from '../../clicks.js';
import {
  acceptWatchClick,
  mayTouchWatch,
  replyPrivately,
  type WatchClickDeps,
} from './watchClicks.js';

export function watchRemoveClick(deps: WatchClickDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptWatchClick(deps, args, decodeWatchButton);
    if (click === undefined) return;
    const { actor, watches, state } = click;
    if (state.t !== 'wr' && state.t !== 'wx' && state.t !== 'wa') return;
    const ids = state.t === 'wa' ? state.ws : [state.w];
    try {
      const mine = await Promise.all(ids.map((id) => mayTouchWatch(click, id)));
      const allowed = ids.filter((_id, i) => mine[i]);
      if (allowed.length === 0 && actor.channelId !== undefined) {
        deps.logger.info(
          { user: actor.userId, press: state.t },
          'watch remove refused: not theirs',
        );
        await replyPrivately(deps, args, watchRefusal({ reason: 'not_yours' }));
        return;
      }
      const removed = await watches.service.removeMany(allowed, actor.channelId, actor.userId);
      deps.logger.info(
        { user: actor.userId, press: state.t, asked: ids.length, removed: removed.length },
        'watch remove',
      );
      await replyPrivately(deps, args, watchRemoved(removed));
    } catch (error) {
      deps.logger.warn({ err: { type: (error as Error).name } }, 'watch remove failed');
      await replyPrivately(deps, args, watchRefusal({ reason: 'store_unavailable' }));
    }
  };
}
