/**
 * "Remove" on a message shared to a channel. The button names a share; the app's own record of
 * that share (slack/shares.ts) says who shared it and where. Only the recorded sharer, from
 * the same workspace, removes it; anyone else is told privately who can. The message is
 * deleted through the click's response_url (`delete_original`: Slack binds it to the clicked
 * message, so no value can point it elsewhere), which works where the bot is not a member;
 * once that URL has expired (30 minutes, 5 uses), chat.delete on the RECORDED channel and ts,
 * never the payload's. Then the sharer's "Shared to #…" confirmation says it was removed.
 */
import { noticeMessage } from '../../../views/feedback.js';
import {
  decodeSharedRemove,
  removeFailed,
  removeRefusal,
  removeStale,
  removeUnavailable,
  shareRemoved,
} from '../../../views/sharedBy.js';
import { unreadableText } from '../../../views/unreadable.js';
import type { ClickArgs } from '../../clicks.js';
import { privateReply, sendSafely } from '../../delivery.js';
import type { DeliveryDeps, ShareDeps } from '../../deps.js';
import { BlockActionPayload, slackErrorCode } from '../../payloads.js';
import { isSharer, type ShareRecord } from '../../shares.js';

export function removeSharedClick(deps: DeliveryDeps & ShareDeps) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const reply = (message: Parameters<typeof privateReply>[0]) =>
      sendSafely(deps.logger, args.respond, privateReply(message));
    const payload = BlockActionPayload.safeParse(args.body);
    if (!payload.success) {
      await reply(noticeMessage(unreadableText('click_shape')));
      return;
    }
    const { user, actions } = payload.data;
    const value = decodeSharedRemove(actions[0]?.value);
    if (!value) {
      await reply(noticeMessage(unreadableText('stale_button')));
      return;
    }
    if (value.kind === 'old') {
      deps.logger.info({ user: user.id }, 'refused a Remove button of the old format');
      await reply(removeStale(value.sharerId));
      return;
    }
    const record = await deps.shares.find(value.shareId);
    if (!record) {
      deps.logger.info({ user: user.id }, 'refused to remove a share with no record');
      await reply(removeUnavailable());
      return;
    }
    if (!isSharer(record, { userId: user.id, teamId: user.team_id })) {
      deps.logger.info({ user: user.id }, 'refused to remove a message someone else shared');
      await reply(removeRefusal(record.sharer));
      return;
    }
    if (!(await removeMessage(deps, args, record))) {
      await reply(removeFailed());
      return;
    }
    await deps.shares.forget(value.shareId);
    // The confirmation's response_url may have expired (30 minutes, 5 uses): then it stays.
    if (record.confirmUrl)
      await deps.shares.replaceAt(record.confirmUrl, shareRemoved(record.channel));
  };
}

async function removeMessage(
  deps: DeliveryDeps,
  args: ClickArgs,
  record: ShareRecord,
): Promise<boolean> {
  if (await sendSafely(deps.logger, args.respond, { delete_original: true })) return true;
  if (!record.channel || !record.ts) {
    deps.logger.warn({ reason: 'no_recorded_ts' }, 'could not remove a share');
    return false;
  }
  try {
    await args.client.chat.delete({ channel: record.channel, ts: record.ts });
    return true;
  } catch (error) {
    deps.logger.warn({ reason: slackErrorCode(error) ?? 'unknown' }, 'could not remove a share');
    return false;
  }
}
