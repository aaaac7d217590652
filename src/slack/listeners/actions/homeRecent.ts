/**
 * A recent lookup's button on App Home: opens the search modal on that item's fresh card, from
 * where it can be shared. App Home clicks carry no response_url, so the card cannot come as a
 * reply: the modal opens at once (the trigger_id lasts 3 seconds, the ERP may take longer)
 * saying it is looking, then the card replaces that view (hash-checked).
 */
import { z } from 'zod';
import { lookingUpNotice } from '../../../views/searchModal.js';
import type { ClickArgs } from '../../clicks.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';
import { modalFor, openModal, showItem } from '../../modals.js';

const RecentCode = z.object({
  actions: z.array(z.object({ value: z.string().trim().min(1).max(100) })).min(1),
});

export function homeRecentClick(deps: DeliveryDeps & ItemDeps) {
  return async ({ body, ack, client }: ClickArgs): Promise<void> => {
    await ack();
    const code = RecentCode.safeParse(body).data?.actions[0]?.value;
    if (code === undefined) {
      deps.logger.warn('recent lookup payload did not match the expected shape');
      return;
    }
    const opened = await openModal(deps, client, body, {
      what: 'recent lookup',
      family: 'stock',
      view: () => modalFor(deps, {}, { notice: lookingUpNotice(code) }),
      refused: 'recent lookup refused by access rules',
    });
    if (opened) await showItem(deps, client, opened, {}, code);
  };
}
