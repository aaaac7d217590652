/**
 * `/stock watch CODE below|above N [at BRANCH] [notify …]`, `/stock watches`, `/stock unwatch
 * CODE [at BRANCH]`, `/stock digest on|off`: the watch service answers; the confirmation of a
 * new watch is posted in the channel by the service itself (which proves the app can post
 * there), the rest is private. An unwatch that matches several asks first (buttons with a
 * confirm dialog); nothing is removed until one is pressed.
 */
import { isErpError } from '../../../erp/errors.js';
import { markedAs } from '../../../views/blocks.js';
import { noticeMessage } from '../../../views/feedback.js';
import type { SlackMessage } from '../../../views/message.js';
import { oneShotMadeNote } from '../../../views/oneShot.js';
import { watchList } from '../../../views/watchList.js';
import {
  digestAnswer,
  unwatchSeveral,
  watchMadeAnswer,
  watchNeedsChannelText,
  watchRefusal,
  watchRemoved,
} from '../../../views/watchNotices.js';
import type { Watches } from '../../../watches/index.js';
import { refusalOfFailure } from '../../../watches/service.js';
import type { DeliveryDeps, WatchDeps } from '../../deps.js';
import type { StockRequest } from '../../parser.js';
import type { Actor } from '../../payloads.js';

type WatchRequest = Extract<StockRequest, { kind: 'watch' | 'watches' | 'unwatch' | 'digest' }>;

/** Branch words as the service matches them: none means company-wide. */
function branchOf(words: readonly string[]): string | undefined {
  const joined = words.join(' ').trim();
  return joined === '' ? undefined : joined;
}

export async function watchAnswer(
  deps: DeliveryDeps & WatchDeps,
  watches: Watches,
  request: WatchRequest,
  actor: Actor,
  /**
   * `replace`: the person pressed Replace on the question a second watch asked; `once`: a
   * one-shot watch, removed after its first alert ("Tell me when it's Yes").
   */
  options: { replace?: boolean; once?: boolean; threadTs?: string | undefined } = {},
): Promise<SlackMessage> {
  const channelId = actor.channelId;
  if (channelId === undefined) return noticeMessage(watchNeedsChannelText());
  try {
    switch (request.kind) {
      case 'watch': {
        const made = await watches.service.create({
          teamId: actor.teamId ?? '',
          channelId,
          userId: actor.userId,
          code: request.code,
          branch: branchOf(request.branchWords),
          direction: request.direction,
          threshold: request.threshold,
          ...(request.notify ? { notify: request.notify } : {}),
          ...(options.replace === true ? { replace: true } : {}),
          ...(options.once ? { once: true } : {}),
          ...(options.once && options.threadTs ? { threadTs: options.threadTs } : {}),
        });
        const answer =
          options.once && made.ok
            ? oneShotMadeNote(
                {
                  code: made.watch.code,
                  quantity: request.threshold,
                  branchName: made.watch.branchName,
                },
                made.past,
              )
            : watchMadeAnswer(made);
        return made.ok ? markedAs(answer, 'done') : answer;
      }
      case 'watches': {
        const listed = await watches.service.listChannel(channelId);
        return markedAs(watchList({ ...listed, scope: 'channel', now: deps.now() }), 'done');
      }
      case 'unwatch': {
        const result = await watches.service.unwatch(
          channelId,
          request.code,
          branchOf(request.branchWords),
          actor.userId,
        );
        if ('confirm' in result) return markedAs(unwatchSeveral(result.confirm), 'done');
        // No watch on that code here stays "nothing found": unlike a digest, the code may be
        // mistyped, and the watch that was meant is then still there.
        const removed = watchRemoved(result.removed);
        return result.removed.length > 0 ? markedAs(removed, 'done') : removed;
      }
      case 'digest':
        return digestCommand(watches, request, channelId, actor, deps.now());
    }
  } catch (error) {
    // ERP failures get the usual answer; anything else here is the watch database.
    if (isErpError(error)) throw error;
    deps.logger.warn({ err: { type: (error as Error).name } }, 'watch command: store unavailable');
    return watchRefusal(refusalOfFailure(error));
  }
}

async function digestCommand(
  watches: Watches,
  request: Extract<WatchRequest, { kind: 'digest' }>,
  channelId: string,
  actor: Actor,
  now: Date,
): Promise<SlackMessage> {
  if (request.action === 'on') {
    const setting = await watches.digests.turnOn({
      channelId,
      teamId: actor.teamId ?? '',
      userId: actor.userId,
      minuteOfDay: request.minuteOfDay,
      zone: request.zone,
      demand: request.demand,
    });
    return markedAs(digestAnswer({ kind: 'on', ...setting, now }), 'done');
  }
  if (request.action === 'off') {
    // No digest to turn off is done all the same: the channel ends with none, as asked.
    const wasOn = await watches.digests.turnOff(channelId, actor.userId);
    return markedAs(digestAnswer({ kind: 'off', wasOn }), 'done');
  }
  // The setting, or that there is none: an answer either way, as an empty watch list is.
  return markedAs(
    digestAnswer({ kind: 'status', setting: await watches.digests.setting(channelId), now }),
    'done',
  );
}
