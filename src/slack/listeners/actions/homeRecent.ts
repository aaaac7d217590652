/**
 * A recent lookup's button on App Home: opens the search modal on that item's fresh card, from
 * where it can be shared. App Home clicks carry no response_url, so the card cannot come as a
 * reply: the modal opens at once (the trigger_id lasts 3 seconds, the ERP may take longer)
 * saying it is looking, then the card replaces that view (hash-checked).
 */
import { z } from 'zod';
import { NotFoundError } from '../../../erp/errors.js';
import { errorFields } from '../../../log/logger.js';
import { checkAccess } from '../../../privacy/access.js';
import { errorMessage } from '../../../views/feedback.js';
import { itemNotFoundNotice, lookingUpNotice } from '../../../views/searchModal.js';
import { itemCardAnswer, logFailure } from '../../answers.js';
import type { ClickArgs } from '../../clicks.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';
import { PayloadUser } from '../../ids.js';
import { modalFor, updateModal, ViewPayload } from '../../modals.js';
import { userActor } from '../../payloads.js';

const RecentClick = z.object({
  trigger_id: z.string().min(1),
  user: PayloadUser,
  actions: z.array(z.object({ value: z.string().trim().min(1).max(100) })).min(1),
});

const Opened = z.object({ view: ViewPayload });

export function homeRecentClick(deps: DeliveryDeps & ItemDeps) {
  return async ({ body, ack, client }: ClickArgs): Promise<void> => {
    await ack();
    const parsed = RecentClick.safeParse(body);
    if (!parsed.success) {
      deps.logger.warn('recent lookup payload did not match the expected shape');
      return;
    }
    const { user, trigger_id: triggerId } = parsed.data;
    const code = parsed.data.actions[0]?.value ?? '';
    const actor = userActor(user);
    if (!checkAccess(deps.access.stock, actor, '/stock').allowed) {
      deps.logger.info({ user: actor.userId }, 'recent lookup refused by access rules');
      return;
    }
    let view: z.infer<typeof ViewPayload>;
    try {
      const opened = await client.views.open({
        trigger_id: triggerId,
        view: modalFor(deps, {}, { notice: lookingUpNotice(code) }),
      });
      const read = Opened.safeParse(opened);
      if (!read.success) return;
      view = read.data.view;
    } catch (error) {
      deps.logger.warn({ err: errorFields(error) }, 'views.open failed');
      return;
    }
    try {
      const card = await itemCardAnswer(deps, { ref: { code } }, actor, client);
      await updateModal(deps, client, view, { code }, { card });
    } catch (error) {
      let notice: string;
      if (error instanceof NotFoundError) notice = itemNotFoundNotice(code);
      else {
        logFailure(deps.logger, 'recent lookup card', error);
        notice = errorMessage(error).text;
      }
      await updateModal(deps, client, view, {}, { notice });
    }
  };
}
