/**
 * The search modal's submit button "Share to channel": posts the card (to everyone in the
 * chosen conversation, or only to the user), then closes the modal; a failure is shown in
 * place.
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { z } from 'zod';
import { checkAccess } from '../../../privacy/access.js';
import { readSearchMetadata, SEARCH, SEARCH_ERRORS } from '../../../views/searchModal.js';
import { itemCardAnswer, safely } from '../../answers.js';
import type { ListenerDeps } from '../../deps.js';
import { slackErrorCode } from '../../payloads.js';
import { UserPayload, ViewPayload } from '../../searchModal.js';

type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

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

export function shareFromSearch(deps: ListenerDeps) {
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
      userTeamId: user.team_id,
      channelId: channel ?? undefined,
    };
    // The modal is /stock by another door: its rules hold for the conversation chosen too.
    const access = checkAccess(deps.access.stock, actor, '/stock');
    if (!access.allowed) {
      deps.logger.info({ user: actor.userId, reason: access.reason }, 'search modal share refused');
      await ack({ response_action: 'errors', errors: { [SEARCH.shareBlock]: access.message } });
      return;
    }
    const card = await safely(deps.logger, 'search modal share', () =>
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
