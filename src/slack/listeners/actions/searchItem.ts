/** An item chosen in the search modal: its fresh card shown in the modal. */
import { NotFoundError } from '../../../erp/errors.js';
import { checkAccess } from '../../../privacy/access.js';
import { errorMessage } from '../../../views/feedback.js';
import { itemNotFoundNotice } from '../../../views/searchModal.js';
import { itemCardAnswer, logFailure } from '../../answers.js';
import type { ClickArgs } from '../../clicks.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';
import { parseModalAction, updateModal } from '../../modals.js';
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
    const code = action.value;
    try {
      const card = await itemCardAnswer(deps, { ref: { code } }, actor, client);
      await updateModal(deps, client, action.view, { ...action.metadata, code }, { card });
    } catch (error) {
      let notice: string;
      if (error instanceof NotFoundError) notice = itemNotFoundNotice(code);
      else {
        logFailure(deps.logger, 'search modal card', error);
        notice = errorMessage(error).text;
      }
      await updateModal(deps, client, action.view, { ...action.metadata }, { notice });
    }
  };
}
