/**
 * Opens the "Search stock" modal: from the global shortcut `stock_search`, or the App Home
 * button. The modal is built from the index alone (no ERP call), so views.open goes out at
 * once, well inside the trigger_id's 3 seconds.
 */

import type {
  AllMiddlewareArgs,
  BlockAction,
  GlobalShortcut,
  SlackActionMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
} from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { errorFields } from '../../../log/logger.js';
import { checkAccess } from '../../../privacy/access.js';
import type { ListenerDeps } from '../../deps.js';
import { modalFor } from './common.js';

export const STOCK_SEARCH_CALLBACK_ID = 'stock_search';

const Opener = z.object({
  trigger_id: z.string().min(1),
  user: z.object({ id: z.string().min(1), team_id: z.string().optional() }),
});

async function open(deps: ListenerDeps, client: WebClient, body: unknown): Promise<void> {
  const parsed = Opener.safeParse(body);
  if (!parsed.success) {
    deps.logger.warn('search shortcut payload did not match the expected shape');
    return;
  }
  const actor = { userId: parsed.data.user.id, channelId: undefined };
  // A user not allowed /stock gets no modal: there is no channel to tell them in, and the
  // shortcut is the same lookup by another door.
  if (!checkAccess(deps.access.stock, actor, '/stock').allowed) {
    deps.logger.info({ user: actor.userId }, 'search modal refused by STOCK_ALLOWED_USERS');
    return;
  }
  try {
    await client.views.open({ trigger_id: parsed.data.trigger_id, view: modalFor(deps, {}) });
  } catch (error) {
    deps.logger.warn({ err: errorFields(error) }, 'views.open failed');
  }
}

export function searchShortcut(deps: ListenerDeps) {
  return async ({
    shortcut,
    ack,
    client,
  }: SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    await open(deps, client, shortcut);
  };
}

export function homeSearchButton(deps: ListenerDeps) {
  return async ({
    body,
    ack,
    client,
  }: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    await open(deps, client, body);
  };
}
