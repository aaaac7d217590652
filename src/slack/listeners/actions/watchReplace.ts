/**
 * Replace and Cancel under "You already watch WIDGET-9 at Perth below 5 here: replace it with
 * below 10?". Replace makes the watch exactly as `/stock watch …` would, in the conversation
 * the question was about, now saying yes to replacing; Cancel changes nothing. The question
 * is replaced by the answer, for the presser only.
 *
 * After the Watch… modal the question arrives in the app's direct messages, so the click's
 * conversation may not be the watch's: the access lists are asked for the watch's, and the
 * presser must still be in it (as the modal asked when it was submitted).
 */
import { checkAccess } from '../../../privacy/access.js';
import { conversationRefusal } from '../../../views/conversationRefusals.js';
import { noticeMessage } from '../../../views/feedback.js';
import type { SlackMessage } from '../../../views/message.js';
import { decodeWatchReplace } from '../../../views/watchButtons.js';
import { watchKept } from '../../../views/watchNotices.js';
import { safely } from '../../answers.js';
import type { ClickArgs } from '../../clicks.js';
import { sendSafely } from '../../delivery.js';
import type { DeliveryDeps, MembersDeps, WatchDeps } from '../../deps.js';
import { watchAnswer } from '../commands/watch.js';
import { acceptWatchClick } from './watchClicks.js';

export function watchReplaceClick(deps: DeliveryDeps & WatchDeps & MembersDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptWatchClick(deps, args, decodeWatchReplace);
    if (click === undefined) return;
    const answer = (message: SlackMessage) =>
      sendSafely(deps.logger, args.respond, {
        replace_original: true,
        text: message.text,
        blocks: message.blocks,
      });
    const { state, watches } = click;
    if (state.t === 'wk') {
      await answer(watchKept(state.c));
      return;
    }
    const actor = { ...click.actor, channelId: state.ch };
    if (click.actor.channelId !== state.ch) {
      const access = checkAccess(deps.access.stock, actor, '/stock');
      if (!access.allowed) {
        await answer(noticeMessage(access.message));
        return;
      }
      const may = await deps.members.mayPost(
        args.client,
        state.ch,
        actor.userId,
        args.context.botUserId,
      );
      if (!may.ok) {
        await answer(conversationRefusal(may.reason));
        return;
      }
    }
    deps.logger.info({ user: actor.userId }, 'watch replace');
    await answer(
      await safely(deps.logger, 'replace watch', () =>
        watchAnswer(
          deps,
          watches,
          {
            kind: 'watch',
            code: state.c,
            direction: state.d,
            threshold: state.n,
            branchWords: state.b === undefined ? [] : [state.b],
            ...(state.no === undefined ? {} : { notify: state.no }),
          },
          actor,
          { replace: true },
        ),
      ),
    );
  };
}
