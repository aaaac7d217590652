/**
 * App Home: every `app_home_opened` on the Home tab publishes the user's view afresh (the
 * event fires on every visit and carries no "first time" flag, so this is idempotent). On the
 * Messages tab (the agent surface) it sets the suggested prompts (agentSurface.ts).
 */

import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { errorFields } from '../../../log/logger.js';
import { checkAccess } from '../../../privacy/access.js';
import { appHomeRefusedView, appHomeView, type HomeWatchRow } from '../../../views/appHome.js';
import { NO_CATALOGUE } from '../../../views/catalogue.js';
import { homeRecentRows } from '../../answers.js';
import type { DeliveryDeps, ItemDeps, WatchDeps } from '../../deps.js';
import { messagesTabOpened } from './agentSurface.js';

export function appHomeOpened(deps: DeliveryDeps & ItemDeps & WatchDeps) {
  return async ({
    event,
    client,
  }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    if (event.tab === 'messages' && typeof event.channel === 'string') {
      await messagesTabOpened(deps, client, event.channel);
      return;
    }
    if (event.tab !== 'home' || typeof event.user !== 'string') return;
    const who = { userId: event.user, channelId: undefined };
    // Home shows the user's recent item lookups and opens the search modal: /stock's rules.
    // A user they refuse sees a short refusal (an empty Home would look broken).
    const stock = checkAccess(deps.access.stock, who, '/stock');
    if (!stock.allowed) {
      deps.logger.info(
        { user: event.user, reason: stock.reason },
        'App Home refused by access rules',
      );
      await publish(deps, client, event.user, appHomeRefusedView());
      return;
    }
    const status = deps.erpStatus?.();
    const view = appHomeView({
      sandbox: status?.sandbox ?? false,
      breaker: status?.breaker ?? 'closed',
      budgets: status?.endpoints ?? [],
      catalogue: deps.catalogue?.status() ?? NO_CATALOGUE,
      recent: await homeRecentRows(deps, event.user),
      watches: await watchesOf(deps, event.user),
      contactAllowed: checkAccess(deps.access.contact, who, '/contact').allowed,
      now: deps.now(),
    });
    await publish(deps, client, event.user, view);
  };
}

/** The person's watches; a failing provider leaves the section out rather than Home blank. */
async function watchesOf(
  deps: DeliveryDeps & ItemDeps & WatchDeps,
  userId: string,
): Promise<HomeWatchRow[] | undefined> {
  if (!deps.watchesOf) return undefined;
  try {
    return await deps.watchesOf(userId);
  } catch (error) {
    deps.logger.warn({ err: errorFields(error) }, 'App Home could not list watches');
    return undefined;
  }
}

async function publish(
  deps: DeliveryDeps & ItemDeps & WatchDeps,
  client: AllMiddlewareArgs['client'],
  userId: string,
  view: Parameters<AllMiddlewareArgs['client']['views']['publish']>[0]['view'],
): Promise<void> {
  try {
    await client.views.publish({ user_id: userId, view });
  } catch (error) {
    deps.logger.warn({ err: errorFields(error) }, 'views.publish failed');
  }
}
