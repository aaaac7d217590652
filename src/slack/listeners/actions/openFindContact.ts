/** App Home's "Find contact" button: opens the Find contact modal (nothing is searched yet). */
import { findContactModal } from '../../../views/findContactModal.js';
import type { ClickArgs } from '../../clicks.js';
import type { DeliveryDeps } from '../../deps.js';
import { openModal } from '../../modals.js';

export function findContactClick(deps: DeliveryDeps) {
  return async ({ body, ack, client }: ClickArgs): Promise<void> => {
    await ack();
    // The modal is /contact by another door: its access rules decide.
    await openModal(deps, client, body, {
      what: 'Find contact',
      family: 'contact',
      view: () => findContactModal(),
      refused: 'Find contact refused by access rules',
    });
  };
}
