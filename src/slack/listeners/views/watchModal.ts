/**
 * The Watch… modal's submission: the same creation as `/stock watch`, in the conversation
 * chosen (the /stock access lists apply there). Problems with the form are shown on it; a
 * refusal or "cannot post there" closes the modal and tells the user privately.
 */
import { z } from 'zod';
import { isErpError } from '../../../erp/errors.js';
import { errorFields } from '../../../log/logger.js';
import { checkAccess } from '../../../privacy/access.js';
import { conversationRefusal } from '../../../views/conversationRefusals.js';
import { errorMessage } from '../../../views/feedback.js';
import type { SlackMessage } from '../../../views/message.js';
import { decodeWatchOpen } from '../../../views/watchButtons.js';
import {
  WATCH_MODAL,
  WATCH_MODAL_BAD_THRESHOLD,
  WATCH_MODAL_NO_CHANNEL,
  WATCH_MODAL_NO_DIRECTION,
} from '../../../views/watchModal.js';
import { watchMadeAnswer, watchRefusal } from '../../../views/watchNotices.js';
import { refusalOfFailure } from '../../../watches/service.js';
import { sendDirect } from '../../delivery.js';
import type { DeliveryDeps, MembersDeps, WatchDeps } from '../../deps.js';
import { ChannelId } from '../../ids.js';
import { Submission, type SubmitArgs } from '../../modals.js';
import { userActor } from '../../payloads.js';

const Radio = z.object({ selected_option: z.object({ value: z.enum(['below', 'above']) }) });
// Slack sends the number input's text, or null when empty; a forged body may send anything.
// The same whole numbers `/stock watch` takes: coercing null would make an empty field "0".
const NumberInput = z.object({
  value: z
    .string()
    .trim()
    .regex(/^[0-9]{1,15}$/)
    .transform(Number)
    .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)),
});
const Select = z.object({ selected_option: z.object({ value: z.string().max(75) }).nullish() });
const Conversation = z.object({ selected_conversation: ChannelId });

export function watchModalSubmit(deps: DeliveryDeps & WatchDeps & MembersDeps) {
  return async ({ body, ack, client, context }: SubmitArgs): Promise<void> => {
    const parsed = Submission.safeParse(body);
    const state = parsed.success ? decodeWatchOpen(parsed.data.view.private_metadata) : undefined;
    if (!parsed.success || state === undefined || !deps.watches) {
      await ack();
      return;
    }
    const { user, view } = parsed.data;
    const values = view.state.values;
    const at = (block: string, action: string) => values[block]?.[action];
    const direction = Radio.safeParse(at(WATCH_MODAL.directionBlock, WATCH_MODAL.directionAction));
    const threshold = NumberInput.safeParse(
      at(WATCH_MODAL.thresholdBlock, WATCH_MODAL.thresholdAction),
    );
    const branch = Select.safeParse(at(WATCH_MODAL.branchBlock, WATCH_MODAL.branchAction));
    const channel = Conversation.safeParse(at(WATCH_MODAL.channelBlock, WATCH_MODAL.channelAction));
    const errors: Record<string, string> = {};
    if (!direction.success) errors[WATCH_MODAL.directionBlock] = WATCH_MODAL_NO_DIRECTION;
    if (!threshold.success) errors[WATCH_MODAL.thresholdBlock] = WATCH_MODAL_BAD_THRESHOLD;
    if (!channel.success) errors[WATCH_MODAL.channelBlock] = WATCH_MODAL_NO_CHANNEL;
    if (!direction.success || !threshold.success || !channel.success) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    const actor = userActor(user, channel.data.selected_conversation);
    const access = checkAccess(deps.access.stock, actor, '/stock');
    if (!access.allowed) {
      await ack({
        response_action: 'errors',
        errors: { [WATCH_MODAL.channelBlock]: access.message },
      });
      return;
    }
    await ack();
    // The conversation is the person's choice: they must be in it, and so must the app.
    const may = await deps.members.mayPost(
      client,
      channel.data.selected_conversation,
      user.id,
      context.botUserId,
    );
    if (!may.ok) {
      deps.logger.info({ reason: may.reason }, 'watch modal: not posting where the user is not');
      await sendDirect(
        deps.logger,
        client,
        user.id,
        conversationRefusal(may.reason),
        'watch modal answer not delivered',
      );
      return;
    }
    let answer: SlackMessage;
    try {
      const made = await deps.watches.service.create({
        teamId: user.team_id ?? '',
        channelId: channel.data.selected_conversation,
        userId: user.id,
        code: state.c,
        branch: (branch.success ? branch.data.selected_option?.value : undefined) ?? undefined,
        direction: direction.data.selected_option.value,
        threshold: threshold.data.value,
      });
      answer = watchMadeAnswer(made);
    } catch (error) {
      deps.logger.warn({ err: errorFields(error) }, 'watch modal submission failed');
      answer = isErpError(error) ? errorMessage(error) : watchRefusal(refusalOfFailure(error));
    }
    // The app's direct message with the user: the channel may be one it cannot post in.
    await sendDirect(deps.logger, client, user.id, answer, 'watch modal answer not delivered');
  };
}
