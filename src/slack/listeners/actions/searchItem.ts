/** An item chosen in the search modal: its fresh card shown in the modal. */
import { checkAccess } from '../../../privacy/access.js';
import type { ClickArgs } from '../../clicks.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';
import { parseModalAction, showItem } from '../../modals.js';
import { userActor } from '../../payloads.js';

export function searchItemChosen(deps: DeliveryDeps & ItemDeps) {
  return async ({ body, ack, client }: ClickArgs): Promise<void> => {
    await ack();
    const action = parseModalAction(body);
    if (!action?.value) return;
    const actor = userActor(action.user);
    // The modal is /stock by another door: no card for a user its rules refuse.
    if (!checkAccess(deps.access.stock, actor, '/stock').allowed) {
      deps.logger.info({ user: actor.userId }, 'search modal selection refused by access rules');
      return;
    }
    await showItem(deps, client, { view: action.view, actor }, action.metadata, action.value);
  };
}
