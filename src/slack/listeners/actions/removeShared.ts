/**
 * "Remove" on a message shared to a channel: the person who shared it (named in the button's
 * value) deletes it; anyone else is told privately who can. The message is deleted through the
 * click's response_url, which works where the bot is not a member; chat.delete is the fallback
 * once that URL has expired (30 minutes, 5 uses).
 */
import { noticeMessage } from '../../../views/feedback.js';
import { decodeSharedRemove, removeFailed, removeRefusal } from '../../../views/sharedBy.js';
import { unreadableText } from '../../../views/unreadable.js';
import type { ClickArgs } from '../../clicks.js';
import { privateReply, sendSafely } from '../../delivery.js';
import type { DeliveryDeps } from '../../deps.js';
import { BlockActionPayload, slackErrorCode } from '../../payloads.js';

export function removeSharedClick(deps: DeliveryDeps) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const reply = (message: Parameters<typeof privateReply>[0]) =>
      sendSafely(deps.logger, args.respond, privateReply(message));
    const payload = BlockActionPayload.safeParse(args.body);
    if (!payload.success) {
      await reply(noticeMessage(unreadableText('click_shape')));
      return;
    }
    const { user, channel, container, actions } = payload.data;
    const state = decodeSharedRemove(actions[0]?.value);
    if (!state) {
      await reply(noticeMessage(unreadableText('stale_button')));
      return;
    }
    if (state.u !== user.id) {
      deps.logger.info({ user: user.id }, 'refused to remove a message someone else shared');
      await reply(removeRefusal(state.u));
      return;
    }
    if (await sendSafely(deps.logger, args.respond, { delete_original: true })) return;
    const ts = container?.message_ts;
    try {
      if (!channel?.id || !ts) throw new Error('no channel or message to delete');
      await args.client.chat.delete({ channel: channel.id, ts });
    } catch (error) {
      deps.logger.warn({ reason: slackErrorCode(error) ?? 'unknown' }, 'could not remove a share');
      await reply(removeFailed());
    }
  };
}
