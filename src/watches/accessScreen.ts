/**
 * The access lists (STOCK_ALLOWED_USERS, STOCK_ALLOWED_CHANNELS) hold for watches made before
 * they were tightened: before every round of checks and every post, a watch whose creator or
 * channel the lists now refuse is switched off (`access_revoked`), and the notifier tells its
 * creator once, as for any switch-off.
 */
import type { Watch, WatchRepository } from './repository.js';

/** Whether the lists let this creator watch in this channel (injected: watches know no lists). */
export type MayWatch = (watch: { creatorId: string; channelId: string }) => boolean;

export const ACCESS_REVOKED = 'access_revoked';

export const passes = (mayWatch: MayWatch, watch: Watch) =>
  mayWatch({ creatorId: watch.creator_id, channelId: watch.channel_id });

/** Switches off every active watch the lists now refuse; returns how many. */
export async function screenWatches(
  repo: WatchRepository,
  mayWatch: MayWatch,
  at: number,
): Promise<number> {
  let off = 0;
  for (const watch of await repo.allActive()) {
    if (!passes(mayWatch, watch) && (await repo.switchOff(watch, ACCESS_REVOKED, at))) off += 1;
  }
  return off;
}
