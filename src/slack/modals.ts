/**
 * The app's modals: opening one (the search modal, Find contact), the submission every
 * modal's view listener validates (the Watch…, Find contact and share-from-search
 * submissions), and the search modal's own parts: the payload fields its actions read
 * (validated), the modal built from the catalogue's current categories, updating it, and the
 * item card shown in it.
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { NotFoundError } from '../erp/errors.js';
import { errorFields } from '../log/logger.js';
import { isTransient } from '../lookup/types.js';
import { checkAccess } from '../privacy/access.js';
import { errorMessage } from '../views/feedback.js';
import type { SlackMessage } from '../views/message.js';
import {
  itemNotFoundNotice,
  readSearchMetadata,
  type SearchMetadata,
  searchModal,
} from '../views/searchModal.js';
import { itemCardAnswer, logFailure } from './answers.js';
import type { DeliveryDeps, ItemDeps } from './deps.js';
import { PayloadUser, ViewId } from './ids.js';
import { type Actor, slackErrorCode, userActor } from './payloads.js';

const ViewPayload = z.object({
  id: ViewId,
  hash: z.string().optional(),
  private_metadata: z.string().optional(),
});

/** A submitted modal's input values, block by block and action by action (each read apart). */
const ViewState = z.object({
  values: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/** What a modal's submission listener is called with. */
export type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** A modal's submission: who submitted it, and the view with its input values. */
export const Submission = z.object({
  user: PayloadUser,
  view: ViewPayload.extend({ state: ViewState }),
});

/** What the modal shows besides its filters: a card, or a notice (with Try again). */
type ModalExtra = { card?: SlackMessage; notice?: string; retryCode?: string };

export function modalFor(
  deps: Pick<ItemDeps, 'catalogue'> & Pick<DeliveryDeps, 'display'>,
  metadata: SearchMetadata,
  extra: ModalExtra = {},
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
  extra: ModalExtra = {},
): Promise<void> {
  await replaceView(deps, client, view, modalFor(deps, metadata, extra));
}

/** views.update with the hash (see updateModal); a `hash_conflict` is left alone. */
async function replaceView(
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
  // A button in the modal (Try again) carries its value directly.
  value: z.string().min(1).max(150).optional(),
});

const ModalAction = z.object({
  user: PayloadUser,
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
    value: action.success ? (action.data.selected_option?.value ?? action.data.value) : undefined,
  };
}

const Opener = z.object({
  trigger_id: z.string().min(1),
  user: PayloadUser,
});

const Opened = z.object({ view: ViewPayload });

/**
 * Opens a modal on a trigger (a shortcut, an App Home button), right away: the trigger_id lasts
 * 3 seconds. A user the command's access rules refuse gets no modal: it is the same lookup by
 * another door, and there is no channel to tell them in. Returns the opened view and who opened
 * it, or undefined when nothing opened (each reason logged).
 */
export async function openModal(
  deps: Pick<DeliveryDeps, 'logger' | 'access'>,
  client: WebClient,
  body: unknown,
  door: {
    what: string;
    family: 'stock' | 'contact';
    view: () => ModalView;
    /** The log line when the access rules refuse the user. */
    refused: string;
  },
): Promise<{ view: z.infer<typeof ViewPayload>; actor: Actor } | undefined> {
  const parsed = Opener.safeParse(body);
  if (!parsed.success) {
    deps.logger.warn(`${door.what} payload did not match the expected shape`);
    return undefined;
  }
  const actor = userActor(parsed.data.user);
  const command = door.family === 'stock' ? '/stock' : '/contact';
  if (!checkAccess(deps.access[door.family], actor, command).allowed) {
    deps.logger.info({ user: actor.userId }, door.refused);
    return undefined;
  }
  try {
    const opened = await client.views.open({
      trigger_id: parsed.data.trigger_id,
      view: door.view(),
    });
    const read = Opened.safeParse(opened);
    return read.success ? { view: read.data.view, actor } : undefined;
  } catch (error) {
    deps.logger.warn({ err: errorFields(error) }, 'views.open failed');
    return undefined;
  }
}

/**
 * Opens the "Search stock" modal, from the global shortcut or the App Home button. It is
 * built from the index alone (no ERP call), so views.open goes out at once.
 */
export async function openSearchModal(
  deps: Pick<ItemDeps, 'catalogue'> & Pick<DeliveryDeps, 'display' | 'logger' | 'access'>,
  client: WebClient,
  body: unknown,
): Promise<void> {
  await openModal(deps, client, body, {
    what: 'search shortcut',
    family: 'stock',
    view: () => modalFor(deps, {}),
    refused: 'search modal refused by STOCK_ALLOWED_USERS',
  });
}

/**
 * The search modal showing item `code`'s fresh card, or a notice saying why it cannot (no such
 * item, the ERP's trouble); `metadata` is what the modal remembers besides the code.
 */
export async function showItem(
  deps: ItemDeps & Pick<DeliveryDeps, 'display' | 'logger' | 'now'>,
  client: WebClient,
  opened: { view: z.infer<typeof ViewPayload>; actor: Actor },
  metadata: SearchMetadata,
  code: string,
): Promise<void> {
  const { view, actor } = opened;
  try {
    const card = await itemCardAnswer(deps, { ref: { code } }, actor, client);
    await updateModal(deps, client, view, { ...metadata, code }, { card });
  } catch (error) {
    let notice: string;
    if (error instanceof NotFoundError) notice = itemNotFoundNotice(code);
    else {
      logFailure(deps.logger, 'search modal card', error);
      notice = errorMessage(error).text;
    }
    const retry = isTransient(error) ? { retryCode: code } : {};
    await updateModal(deps, client, view, { ...metadata }, { notice, ...retry });
  }
}
