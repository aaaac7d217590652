/**
 * "Share to channel": posts the card for everyone (always redacted, without Reveal or
 * Share), then replaces the clicker's ephemeral copy with a short confirmation.
 *
 * The click's response_url can post in any conversation the command was used in (it bypasses
 * channel membership); when it cannot (expired after 30 minutes or 5 uses), chat.postMessage
 * is tried; when that fails too (not_in_channel, channel_not_found, a DM between people), the
 * user is told what to do.
 */
import type { RespondArguments } from '@slack/bolt';
import { ACTION } from '../../../views/actions.js';
import { errorMessage, shareConfirmation } from '../../../views/feedback.js';
import type { SlackMessage } from '../../../views/message.js';
import { cannotShareMessage } from '../../../views/share.js';
import { withSharedBy } from '../../../views/sharedBy.js';
import { contactCardAnswer, itemCardAnswer, logFailure } from '../../answers.js';
import { acceptClick, actionBase, type ClickArgs, itemRequestOf, refOf } from '../../clicks.js';
import { privateReply, sendSafely } from '../../delivery.js';
import type { ContactDeps, DeliveryDeps, ItemDeps } from '../../deps.js';
import { type Actor, slackErrorCode } from '../../payloads.js';

async function postForEveryone(
  deps: DeliveryDeps & ItemDeps & ContactDeps,
  args: ClickArgs,
  actor: Actor,
  message: SlackMessage,
  threadTs: string | undefined,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  // A card opened from an answer in a thread is shared in that thread.
  const thread = threadTs === undefined ? {} : { thread_ts: threadTs };
  const publicMessage: RespondArguments = {
    response_type: 'in_channel',
    replace_original: false,
    ...thread,
    text: message.text,
    blocks: message.blocks,
  };
  if (await sendSafely(deps.logger, args.respond, publicMessage)) return { ok: true };
  if (!actor.channelId) return { ok: false, reason: 'channel_not_found' };
  try {
    await args.client.chat.postMessage({
      channel: actor.channelId,
      ...thread,
      text: message.text,
      blocks: message.blocks,
    });
    return { ok: true };
  } catch (error) {
    const reason = slackErrorCode(error) ?? 'unknown';
    deps.logger.warn({ reason, channel: actor.channelId }, 'could not share a card');
    return { ok: false, reason };
  }
}

/** Share on an item card or a contact card (the action id says which). */
export function shareClick(deps: DeliveryDeps & ItemDeps & ContactDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const kind = actionBase(args) === ACTION.itemShare ? 'i' : 'c';
    const click = await acceptClick(deps, args, kind);
    if (!click) return;
    const { actor, state } = click;
    let message: SlackMessage;
    try {
      message =
        state.t === 'i'
          ? // What the user is looking at: the branch page, BOM page and drill-down path.
            await itemCardAnswer(
              deps,
              { ...itemRequestOf(state), shared: true },
              actor,
              args.client,
            )
          : await contactCardAnswer(
              deps,
              {
                ref: refOf(state),
                peoplePage: state.pp,
                allPeople: state.m === 'a',
                peopleWords: state.pf,
                shared: true,
              },
              actor,
              args.client,
            );
    } catch (error) {
      logFailure(deps.logger, 'share', error);
      await sendSafely(deps.logger, args.respond, privateReply(errorMessage(error)));
      return;
    }
    // Everyone sees who shared it, and the sharer can take it back (Remove).
    const threadTs = state.t === 'i' ? state.th : undefined;
    const posted = await postForEveryone(
      deps,
      args,
      actor,
      withSharedBy(message, actor.userId),
      threadTs,
    );
    const reply = posted.ok
      ? { replace_original: true, ...shareConfirmation(actor.channelId) }
      : privateReply(cannotShareMessage(posted.reason));
    await sendSafely(deps.logger, args.respond, reply);
  };
}
