/**
 * What the search modal's listeners share: the payload fields they read (validated), the
 * modal built from the catalogue's current categories, opening and updating it.
 */
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { errorFields } from '../log/logger.js';
import { checkAccess } from '../privacy/access.js';
import type { SlackMessage } from '../views/message.js';
import { readSearchMetadata, type SearchMetadata, searchModal } from '../views/searchModal.js';
import type { DeliveryDeps, ItemDeps } from './deps.js';
import { PayloadUser, ViewId } from './ids.js';
import { slackErrorCode } from './payloads.js';

export const ViewPayload = z.object({
  id: ViewId,
  hash: z.string().optional(),
  private_metadata: z.string().optional(),
});

export const UserPayload = PayloadUser;

/** A submitted modal's input values, block by block and action by action (each read apart). */
export const ViewState = z.object({
  values: z.record(z.string(), z.record(z.string(), z.unknown())),
});

export function modalFor(
  deps: Pick<ItemDeps, 'catalogue'> & Pick<DeliveryDeps, 'display'>,
  metadata: SearchMetadata,
  extra: { card?: SlackMessage; notice?: string } = {},
): ModalView {
  return searchModal({
    categories: deps.catalogue?.categories() ?? [],
    countsComplete: deps.catalogue?.status().complete ?? false,
    metadata,
    sandbox: deps.display?.sandbox ?? false,
    ...extra,
  });
}

/**
 * Replaces the open modal's view, sending the hash of the view the user acted on: when they
 * changed it since (another item, another category), Slack answers `hash_conflict` and their
 * newer view stays. Any other failure is logged (the user still sees the old view).
 */
export async function updateModal(
  deps: Pick<ItemDeps, 'catalogue'> & Pick<DeliveryDeps, 'display' | 'logger'>,
  client: WebClient,
  view: z.infer<typeof ViewPayload>,
  metadata: SearchMetadata,
  extra: { card?: SlackMessage; notice?: string } = {},
): Promise<void> {
  await replaceView(deps, client, view, modalFor(deps, metadata, extra));
}

/** views.update with the hash (see updateModal); a `hash_conflict` is left alone. */
export async function replaceView(
  deps: Pick<DeliveryDeps, 'logger'>,
  client: WebClient,
  view: z.infer<typeof ViewPayload>,
  next: ModalView,
): Promise<void> {
  try {
    await client.views.update({
      view_id: view.id,
      ...(view.hash ? { hash: view.hash } : {}),
      view: next,
    });
  } catch (error) {
    if (slackErrorCode(error) === 'hash_conflict') {
      deps.logger.debug('views.update skipped: the user changed the view meanwhile');
      return;
    }
    deps.logger.warn({ err: errorFields(error) }, 'views.update failed');
  }
}

const SelectAction = z.object({
  selected_option: z.object({ value: z.string().min(1).max(150) }).nullish(),
});

const ModalAction = z.object({
  user: UserPayload,
  view: ViewPayload,
  actions: z.array(z.unknown()),
});

/** A select inside the modal: who, which view, its metadata and the value chosen. */
export function parseModalAction(body: unknown) {
  const parsed = ModalAction.safeParse(body);
  if (!parsed.success) return undefined;
  const action = SelectAction.safeParse(parsed.data.actions[0]);
  return {
    user: parsed.data.user,
    view: parsed.data.view,
    metadata: readSearchMetadata(parsed.data.view.private_metadata),
    value: action.success ? action.data.selected_option?.value : undefined,
  };
}

const Opener = z.object({
  trigger_id: z.string().min(1),
  user: PayloadUser,
});

/**
 * Opens the "Search stock" modal, from the global shortcut or the App Home button. It is
 * built from the index alone (no ERP call), so views.open goes out at once, well inside the
 * trigger_id's 3 seconds.
 */
export async function openSearchModal(
  deps: Pick<ItemDeps, 'catalogue'> & Pick<DeliveryDeps, 'display' | 'logger' | 'access'>,
  client: WebClient,
  body: unknown,
): Promise<void> {
  const parsed = Opener.safeParse(body);
  if (!parsed.success) {
    deps.logger.warn('search shortcut payload did not match the expected shape');
    return;
  }
  const actor = { userId: parsed.data.user.id, channelId: undefined };
  // A user not allowed /stock gets no modal: there is no channel to tell them in, and the
  // modal is the same lookup by another door.
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
