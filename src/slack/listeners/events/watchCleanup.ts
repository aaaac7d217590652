/**
 * Slack's cleanup events switch watches off at once, rather than at their next failing post:
 * a channel archived or deleted (its watches' creators get one direct message each), the app
 * uninstalled or its tokens revoked (nobody can be told: the notices are claimed unsent).
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { errorFields } from '../../../log/logger.js';
import { outgoing } from '../../../views/format.js';
import { watchesSwitchedOff } from '../../../views/watchNotices.js';
import type { WatchSummary } from '../../../views/watchWords.js';
import type { DeliveryDeps, WatchDeps } from '../../deps.js';
import { SharedChannelId, TeamId } from '../../ids.js';

type EventArgs = SlackEventMiddlewareArgs & AllMiddlewareArgs;

const ChannelEvent = z.object({ channel: SharedChannelId });
const TeamBody = z.object({ team_id: TeamId });

/** The reason each event gives, in the words of the Slack errors a post would have met. */
const CHANNEL_REASONS = {
  channel_archive: 'is_archived',
  group_archive: 'is_archived',
  channel_deleted: 'channel_not_found',
} as const;

export function watchChannelGone(
  deps: DeliveryDeps & WatchDeps,
  kind: keyof typeof CHANNEL_REASONS,
) {
  return async ({ event, client }: EventArgs): Promise<void> => {
    const parsed = ChannelEvent.safeParse(event);
    if (!parsed.success || !deps.watches) return;
    try {
      const off = await deps.watches.service.switchOff(
        { channelId: parsed.data.channel },
        CHANNEL_REASONS[kind],
      );
      if (off.length === 0) return;
      deps.logger.info(
        { channel: parsed.data.channel, watches: off.length, kind },
        'watches switched off',
      );
      // Claimed first, so a redelivered event or another replica tells nobody twice; then
      // one message per creator, however many of their watches the channel held.
      const claimed = await deps.watches.service.claimOffNotices(off.map((w) => w.id));
      for (const [creatorId, watches] of byCreator(claimed)) {
        const notice = watchesSwitchedOff(watches);
        if (notice === undefined) continue;
        await client.chat
          .postMessage({ channel: creatorId, ...outgoing(notice) })
          .catch((error: unknown) =>
            deps.logger.info({ err: errorFields(error) }, 'watch switch-off notice not delivered'),
          );
      }
    } catch (error) {
      deps.logger.warn(
        { err: errorFields(error) },
        'watches not switched off after a channel event',
      );
    }
  };
}

function byCreator(watches: readonly WatchSummary[]): Map<string, WatchSummary[]> {
  const groups = new Map<string, WatchSummary[]>();
  for (const watch of watches) {
    const group = groups.get(watch.creatorId);
    if (group) group.push(watch);
    else groups.set(watch.creatorId, [watch]);
  }
  return groups;
}

export function watchAppGone(deps: DeliveryDeps & WatchDeps) {
  return async ({ body }: EventArgs): Promise<void> => {
    const parsed = TeamBody.safeParse(body);
    if (!parsed.success || !deps.watches) return;
    try {
      const off = await deps.watches.service.switchOff(
        { teamId: parsed.data.team_id },
        'token_revoked',
      );
      // No token left to tell anyone with: the notices are claimed so no replica tries.
      await deps.watches.service.claimOffNotices(off.map((w) => w.id));
      if (off.length > 0)
        deps.logger.info({ watches: off.length }, 'watches switched off: app removed');
    } catch (error) {
      deps.logger.warn(
        { err: errorFields(error) },
        'watches not switched off after the app was removed',
      );
    }
  };
}
