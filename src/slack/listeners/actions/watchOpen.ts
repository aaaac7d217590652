/** "Watch…" on an item card: opens the watch modal for that item (its branches to choose from). */
import { errorFields } from '../../../log/logger.js';
import { errorMessage } from '../../../views/feedback.js';
import { decodeWatchOpen } from '../../../views/watchButtons.js';
import { watchModal } from '../../../views/watchModal.js';
import type { ClickArgs } from '../../clicks.js';
import type { DeliveryDeps, ItemDeps, WatchDeps } from '../../deps.js';
import { acceptWatchClick, replyPrivately } from './watchClicks.js';

export function watchOpenClick(deps: DeliveryDeps & ItemDeps & WatchDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptWatchClick(deps, args, decodeWatchOpen);
    if (!click) return;
    const triggerId = (args.body as { trigger_id?: unknown }).trigger_id;
    if (typeof triggerId !== 'string') return;
    try {
      // The item must exist to be watched; its branches fill the modal's choice.
      const item = (
        await deps.lookup.getItem({ code: click.state.c }, { requester: click.actor.userId })
      ).data;
      await args.client.views.open({
        trigger_id: triggerId,
        view: watchModal({
          state: { ...click.state, c: item.code },
          description: item.description,
          branches: item.branches.map((b) => b.name),
        }),
      });
    } catch (error) {
      deps.logger.warn({ err: errorFields(error) }, 'watch modal could not open');
      await replyPrivately(deps, args, errorMessage(error));
    }
  };
}
