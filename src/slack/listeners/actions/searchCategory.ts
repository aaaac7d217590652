/**
 * A category chosen in the search modal: remembered in the view's private_metadata, which
 * the typeahead reads.
 */
import { checkAccess } from '../../../privacy/access.js';
import { categoryFromValue } from '../../../views/searchModal.js';
import type { ClickArgs } from '../../clicks.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';
import { parseModalAction, updateModal } from '../../modals.js';

export function searchCategoryChosen(deps: DeliveryDeps & ItemDeps) {
  return async ({ body, ack, client }: ClickArgs): Promise<void> => {
    await ack();
    const action = parseModalAction(body);
    if (!action) return;
    const who = { userId: action.user.id, channelId: undefined };
    if (!checkAccess(deps.access.stock, who, '/stock').allowed) return;
    const metadata = { ...action.metadata, category: categoryFromValue(action.value) };
    await updateModal(deps, client, action.view, metadata);
  };
}
