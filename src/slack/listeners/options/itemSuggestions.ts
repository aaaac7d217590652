/**
 * `block_suggestion` for the modal's item select: options from the catalogue index within
 * a second (Slack waits 3 s and never retries). When the index is incomplete, the first
 * keystroke of a word with 3 characters also starts one upstream search (see suggest.ts)
 * and waits for it at most 700 ms.
 */

import type { AllMiddlewareArgs, BlockSuggestion, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { errorFields } from '../../../log/logger.js';
import { checkAccess } from '../../../privacy/access.js';
import { itemOption } from '../../../views/catalogue.js';
import { readSearchMetadata } from '../../../views/searchModal.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';
import { UserId } from '../../ids.js';

/** Slack shows at most 100; a typeahead needs far fewer. */
const MAX_OPTIONS = 25;
const MAX_TYPED = 200;

const Suggestion = z.object({
  value: z.string().max(2000).default(''),
  user: z.object({ id: UserId }),
  view: z.object({ private_metadata: z.string().optional() }).optional(),
});

export function itemSuggestions(deps: DeliveryDeps & ItemDeps) {
  return async ({
    body,
    ack,
  }: SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs): Promise<void> => {
    const parsed = Suggestion.safeParse(body satisfies BlockSuggestion);
    if (!parsed.success || !deps.catalogue) {
      await ack({ options: [] });
      return;
    }
    // The modal is /stock by another door: a user its rules refuse gets no options.
    const who = { userId: parsed.data.user.id, channelId: undefined };
    if (!checkAccess(deps.access.stock, who, '/stock').allowed) {
      await ack({ options: [] });
      return;
    }
    const metadata = readSearchMetadata(parsed.data.view?.private_metadata);
    try {
      const items = await deps.catalogue.suggest(parsed.data.value.slice(0, MAX_TYPED), {
        category: metadata.category,
        requester: parsed.data.user.id,
        limit: MAX_OPTIONS,
      });
      await ack({ options: items.map(itemOption) });
    } catch (error) {
      deps.logger.warn({ err: errorFields(error) }, 'suggestions failed');
      await ack({ options: [] });
    }
  };
}
