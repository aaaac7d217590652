/** App Home's "Find contact" button: opens the Find contact modal (nothing is searched yet). */
import { z } from 'zod';
import { errorFields } from '../../../log/logger.js';
import { checkAccess } from '../../../privacy/access.js';
import { findContactModal } from '../../../views/findContactModal.js';
import type { ClickArgs } from '../../clicks.js';
import type { DeliveryDeps } from '../../deps.js';
import { UserId } from '../../ids.js';

const Opener = z.object({
  trigger_id: z.string().min(1),
  user: z.object({ id: UserId }),
});

export function findContactClick(deps: DeliveryDeps) {
  return async ({ body, ack, client }: ClickArgs): Promise<void> => {
    await ack();
    const parsed = Opener.safeParse(body);
    if (!parsed.success) {
      deps.logger.warn('Find contact payload did not match the expected shape');
      return;
    }
    // The modal is /contact by another door: a user its rules refuse gets no modal.
    const who = { userId: parsed.data.user.id, channelId: undefined };
    if (!checkAccess(deps.access.contact, who, '/contact').allowed) {
      deps.logger.info({ user: who.userId }, 'Find contact refused by access rules');
      return;
    }
    try {
      await client.views.open({ trigger_id: parsed.data.trigger_id, view: findContactModal() });
    } catch (error) {
      deps.logger.warn({ err: errorFields(error) }, 'views.open failed');
    }
  };
}
