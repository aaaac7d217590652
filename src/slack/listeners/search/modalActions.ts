/**
 * Inside the search modal: a new category filter (remembered in private_metadata, which the
 * suggestions read), an item chosen (its fresh card shown in the modal), and the submit
 * button "Share to channel" (to everyone in the chosen conversation, or only to the user).
 */

import type {
  AllMiddlewareArgs,
  BlockAction,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { NotFoundError } from '../../../erp/errors.js';
import { errorFields } from '../../../log/logger.js';
import { errorMessage } from '../../../views/feedback.js';
import type { SlackMessage } from '../../../views/message.js';
import {
  categoryFromValue,
  itemNotFoundNotice,
  readSearchMetadata,
  SEARCH,
  SEARCH_ERRORS,
  type SearchMetadata,
} from '../../../views/searchModal.js';
import { itemCardAnswer, logFailure, safely } from '../../answers.js';
import type { ListenerDeps } from '../../deps.js';
import { slackErrorCode } from '../../payloads.js';
import { modalFor, UserPayload, ViewPayload } from './common.js';

type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

const SelectAction = z.object({
  selected_option: z.object({ value: z.string().min(1).max(150) }).nullish(),
});

const ModalAction = z.object({
  user: UserPayload,
  view: ViewPayload,
  actions: z.array(z.unknown()),
});

async function update(
  deps: ListenerDeps,
  client: WebClient,
  view: z.infer<typeof ViewPayload>,
  metadata: SearchMetadata,
  extra: { card?: SlackMessage; notice?: string } = {},
): Promise<void> {
  try {
    await client.views.update({ view_id: view.id, view: modalFor(deps, metadata, extra) });
  } catch (error) {
    deps.logger.warn({ err: errorFields(error) }, 'views.update failed');
  }
}

function parseAction(body: unknown) {
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

export function categoryChosen(deps: ListenerDeps) {
  return async ({ body, ack, client }: ActionArgs): Promise<void> => {
    await ack();
    const action = parseAction(body);
    if (!action) return;
    const metadata = { ...action.metadata, category: categoryFromValue(action.value) };
    await update(deps, client, action.view, metadata);
  };
}

export function itemChosen(deps: ListenerDeps) {
  return async ({ body, ack, client }: ActionArgs): Promise<void> => {
    await ack();
    const action = parseAction(body);
    if (!action?.value) return;
    const code = action.value;
    const actor = {
      userId: action.user.id,
      teamId: action.user.team_id,
      channelId: undefined,
      userTeamId: action.user.team_id,
    };
    const metadata = { ...action.metadata, code };
    try {
      const card = await itemCardAnswer(deps, { ref: { code } }, actor, client);
      await update(deps, client, action.view, metadata, { card });
    } catch (error) {
      const notice =
        error instanceof NotFoundError ? itemNotFoundNotice(code) : failureText(deps, error);
      await update(deps, client, action.view, { ...action.metadata }, { notice });
    }
  };
}

const Submission = z.object({
  user: UserPayload,
  view: ViewPayload.extend({
    state: z.object({
      values: z.record(z.string(), z.record(z.string(), z.unknown())),
    }),
  }),
});

const Conversation = z.object({ selected_conversation: z.string().min(1).nullish() });
const Radio = z.object({ selected_option: z.object({ value: z.string() }).nullish() });

/** "Share to channel": posts the card, then closes the modal; a failure is shown in place. */
export function shareFromModal(deps: ListenerDeps) {
  return async ({ body, ack, client }: SubmitArgs): Promise<void> => {
    const parsed = Submission.safeParse(body);
    if (!parsed.success) {
      await ack();
      return;
    }
    const { user, view } = parsed.data;
    const metadata = readSearchMetadata(view.private_metadata);
    if (!metadata.code) {
      await ack({
        response_action: 'errors',
        errors: { [SEARCH.itemBlock]: SEARCH_ERRORS.noItem },
      });
      return;
    }
    const values = view.state.values;
    const conversation = Conversation.safeParse(values[SEARCH.shareBlock]?.[SEARCH.shareAction]);
    const audience = Radio.safeParse(values[SEARCH.audienceBlock]?.[SEARCH.audienceAction]);
    const channel = conversation.success ? conversation.data.selected_conversation : undefined;
    const onlyMe = audience.success && audience.data.selected_option?.value === 'me';
    if (!channel && !onlyMe) {
      await ack({
        response_action: 'errors',
        errors: { [SEARCH.shareBlock]: SEARCH_ERRORS.noConversation },
      });
      return;
    }
    const actor = {
      userId: user.id,
      teamId: user.team_id,
      channelId: channel ?? undefined,
      userTeamId: user.team_id,
    };
    const card = await safely(deps, 'search modal share', () =>
      itemCardAnswer(deps, { ref: { code: metadata.code ?? '' }, shared: !onlyMe }, actor, client),
    );
    try {
      // "Only me": a direct message from the app, where the card's buttons work as usual.
      await client.chat.postMessage({
        channel: onlyMe ? user.id : (channel ?? user.id),
        text: card.text,
        blocks: card.blocks,
      });
      await ack();
    } catch (error) {
      const reason = slackErrorCode(error) ?? 'error';
      await ack({
        response_action: 'errors',
        errors: { [SEARCH.shareBlock]: SEARCH_ERRORS.cannotPost(reason) },
      });
    }
  };
}

/** The words for a card that could not be shown, logged as every failed answer is. */
function failureText(deps: ListenerDeps, error: unknown): string {
  logFailure(deps, 'search modal card', error);
  return errorMessage(error).text;
}
