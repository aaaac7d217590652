/** App Home's "Search stock" button: opens the search modal. */
import type { ClickArgs } from '../../clicks.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';
import { openSearchModal } from '../../modals.js';

export function openSearchClick(deps: DeliveryDeps & ItemDeps) {
  return async ({ body, ack, client }: ClickArgs): Promise<void> => {
    await ack();
    await openSearchModal(deps, client, body);
  };
}
