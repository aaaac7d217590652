/**
 * "Set watch" on a watch proposed from a sentence ("tell me when WIDGET-9 drops below 20 in
 * perth"): the watch is made only now, by this click, for the person who pressed it, in the
 * conversation the proposal is in, exactly as `/stock watch …` makes it there.
 */
import { checkAccess } from '../../../privacy/access.js';
import { noticeMessage } from '../../../views/feedback.js';
import { outgoing } from '../../../views/format.js';
import { watchesNotReadyText } from '../../../views/help.js';
import { unreadableText } from '../../../views/unreadable.js';
import { decodeJson } from '../../../views/watchButtons.js';
import { WatchProposalState } from '../../../views/words.js';
import { safely } from '../../answers.js';
import { type ClickArgs, clickActor } from '../../clicks.js';
import { privateReply, sendSafely } from '../../delivery.js';
import type { DeliveryDeps, WatchDeps } from '../../deps.js';
import { BlockActionPayload } from '../../payloads.js';
import { watchAnswer } from '../commands/watch.js';

/**
 * The thread a one-shot answers in: the button's message's thread, or the message itself when
 * the channel sees it (its replies are the conversation). Nothing for a message only the
 * presser saw outside a thread, nor at the top of a direct message.
 */
function threadOf(body: BlockActionPayload): string | undefined {
  const thread = body.message?.thread_ts ?? body.container?.thread_ts;
  if (thread !== undefined) return thread;
  const inDm = body.channel?.id.startsWith('D') ?? false;
  if (inDm || body.container?.is_ephemeral !== false) return undefined;
  return body.message?.ts ?? body.container?.message_ts;
}

export function setWatchClick(deps: DeliveryDeps & WatchDeps) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const say = (text: string) =>
      sendSafely(deps.logger, args.respond, privateReply(noticeMessage(text)));
    const payload = BlockActionPayload.safeParse(args.body);
    const value = payload.success
      ? decodeJson(payload.data.actions[0]?.value, WatchProposalState)
      : undefined;
    if (!payload.success || value === undefined) {
      await say(unreadableText('stale_button'));
      return;
    }
    const actor = clickActor(payload.data);
    const access = checkAccess(deps.access.stock, actor, '/stock');
    if (!access.allowed) {
      await say(access.message);
      return;
    }
    if (!deps.watches) {
      await say(watchesNotReadyText('watch'));
      return;
    }
    const { watches } = deps;
    const answer = await safely(deps.logger, 'set watch', () =>
      watchAnswer(
        deps,
        watches,
        {
          kind: 'watch',
          code: value.c,
          direction: value.d,
          threshold: value.n,
          branchWords: value.b ?? [],
        },
        actor,
        value.o === 1 ? { once: true, threadTs: threadOf(payload.data) } : {},
      ),
    );
    // A proposal is replaced by what became of it, for the presser only. A No verdict stays
    // (it may be a message the channel sees): the presser is told privately beside it.
    await sendSafely(
      deps.logger,
      args.respond,
      value.o === 1 ? privateReply(answer) : { replace_original: true, ...outgoing(answer) },
    );
  };
}
