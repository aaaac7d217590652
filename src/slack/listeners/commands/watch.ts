/**
 * `/stock watch CODE below|above N [at BRANCH]`, `/stock watches`, `/stock unwatch CODE [at
 * BRANCH]`: the watch service answers; the confirmation of a new watch is posted in the
 * channel by the service itself (which proves the app can post there), the rest is private.
 */
import { isErpError } from '../../../erp/errors.js';
import { noticeMessage } from '../../../views/feedback.js';
import type { SlackMessage } from '../../../views/message.js';
import {
  cannotPostWatchAdvice,
  watchCreatedNote,
  watchList,
  watchNeedsChannelText,
  watchRefusal,
  watchRemoved,
} from '../../../views/watches.js';
import type { Watches } from '../../../watches/index.js';
import { refusalOfFailure } from '../../../watches/service.js';
import type { DeliveryDeps, WatchDeps } from '../../deps.js';
import type { StockRequest } from '../../parser.js';
import type { Actor } from '../../payloads.js';

export type WatchRequest = Extract<StockRequest, { kind: 'watch' | 'watches' | 'unwatch' }>;

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
        });
        if (made.ok) return watchCreatedNote(made.watch, made.past);
        return 'refusal' in made
          ? watchRefusal(made.refusal)
          : cannotPostWatchAdvice(made.cannotPost);
      }
      case 'watches': {
        const listed = await watches.service.listChannel(channelId);
        return watchList({ ...listed, scope: 'channel', now: deps.now() });
      }
      case 'unwatch':
        return watchRemoved(
          await watches.service.unwatch(channelId, request.code, branchOf(request.branchWords)),
        );
    }
  } catch (error) {
    // ERP failures get the usual answer; anything else here is the watch database.
    if (isErpError(error)) throw error;
    deps.logger.warn({ err: { name: (error as Error).name } }, 'watch command: store unavailable');
    return watchRefusal(refusalOfFailure(error));
  }
}
