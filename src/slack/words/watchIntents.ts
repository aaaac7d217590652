/**
 * Watches asked about in words: "what are we watching?" lists this conversation's watches as
 * `/stock watches` does; "stop watching WIDGET-9" offers its watches on the item with a
 * confirmed Remove, or says there is none. Nothing is removed by a sentence.
 */
import { noticeMessage } from '../../views/feedback.js';
import { watchesNotReadyText } from '../../views/help.js';
import type { SlackMessage } from '../../views/message.js';
import { unwatchOffer } from '../../views/unwatchOffer.js';
import { watchNeedsChannelText } from '../../views/watchNotices.js';
import { sameCode } from '../../words/codeShape.js';
import type { WordsRequest } from '../../words/reading.js';
import type { DeliveryDeps, WatchDeps } from '../deps.js';
import { watchAnswer } from '../listeners/commands/watch.js';
import type { Actor } from '../payloads.js';

export async function watchIntentAnswer(
  deps: DeliveryDeps & WatchDeps,
  request: Extract<WordsRequest, { kind: 'watches' | 'unwatch' }>,
  actor: Actor,
): Promise<SlackMessage> {
  if (!deps.watches) return noticeMessage(watchesNotReadyText(request.kind));
  if (request.kind === 'watches') return watchAnswer(deps, deps.watches, request, actor);
  if (actor.channelId === undefined) return noticeMessage(watchNeedsChannelText());
  const listed = await deps.watches.service.listChannel(actor.channelId);
  const branch = request.branchWords.join(' ').toLowerCase();
  const matching = listed.watches.filter(
    (w) =>
      sameCode(w.code, request.code) &&
      (branch === '' || (w.branchName ?? '').toLowerCase().startsWith(branch)),
  );
  return unwatchOffer(request.code, matching);
}
