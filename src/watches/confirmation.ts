/**
 * A new watch's visible confirmation, posted before the watch is saved (it proves the app can
 * post there). A one-shot ("Tell me when it's Yes") answers in the conversation the No was
 * given in: the thread the button sat in, else (in a channel) its own confirmation's thread,
 * else (a direct message) the top of it.
 */
import type { Item } from '../erp/schemas.js';
import { oneShotAlert, oneShotConfirmation } from '../views/oneShot.js';
import { watchConfirmation } from '../views/watchNotices.js';
import type { WatchSummary } from '../views/watchWords.js';
import type { WatchPoster } from './poster.js';

interface Asked {
  channelId: string;
  userId: string;
  threshold: number;
  once?: boolean | undefined;
  threadTs?: string | undefined;
}

/** The thread a one-shot answers in (absent: the top of a direct message). */
export function oneShotThread(input: Asked, confirmationTs: string): { threadTs?: string } {
  if (input.threadTs !== undefined) return { threadTs: input.threadTs };
  return input.channelId.startsWith('D') ? {} : { threadTs: confirmationTs };
}

/**
 * Posts the confirmation and returns it; or, for a one-shot that is already a Yes by the time
 * of the press, says so at once ('told': nothing is to be kept). A Slack refusal is the
 * caller's (a PostError: no watch is made).
 */
export async function postConfirmation(
  poster: WatchPoster,
  input: Asked,
  item: Pick<Item, 'code' | 'id' | 'description'>,
  now: {
    watch: WatchSummary;
    available: number;
    past: boolean;
    at: number;
    intervalSeconds: number;
    notify: string | undefined;
  },
): Promise<{ ts: string } | 'told'> {
  if (!input.once) {
    return poster.post(
      input.channelId,
      watchConfirmation({ ...now, description: item.description }),
    );
  }
  const what = { code: item.code, quantity: input.threshold, branchName: now.watch.branchName };
  if (now.past) {
    const alert = oneShotAlert({
      ...what,
      itemId: item.id,
      available: now.available,
      checkedAt: new Date(now.at),
    });
    await poster.post(input.channelId, alert, input.threadTs);
    return 'told';
  }
  const confirmation = oneShotConfirmation({
    ...what,
    creatorId: input.userId,
    available: now.available,
    description: item.description,
  });
  return poster.post(input.channelId, confirmation, input.threadTs);
}
