/**
 * App Home: every `app_home_opened` on the Home tab publishes the user's view afresh (the
 * event fires on every visit and carries no "first time" flag, so this is idempotent).
 */

import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { errorFields } from '../../../log/logger.js';
import { checkAccess } from '../../../privacy/access.js';
import { NO_CATALOGUE } from '../../../views/catalogue.js';
import { homeView } from '../../../views/home.js';
import type { ListenerDeps } from '../../deps.js';

export function appHomeOpened(deps: ListenerDeps) {
  return async ({
    event,
    client,
  }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    if (event.tab !== 'home' || typeof event.user !== 'string') return;
    // Home shows the user's recent item lookups and opens the search modal: /stock's rules.
    // A user it refuses is shown nothing new (a view would need words for it: none yet).
    const access = checkAccess(
      deps.access.stock,
      { userId: event.user, channelId: event.channel },
      '/stock',
    );
    if (!access.allowed) {
      deps.logger.info(
        { user: event.user, reason: access.reason },
        'App Home refused by access rules',
      );
      return;
    }
    const status = deps.erpStatus?.();
    const catalogue = deps.catalogue?.status();
    const view = homeView({
      sandbox: status?.sandbox ?? false,
      breaker: status?.breaker ?? 'closed',
      budgets: status?.endpoints ?? [],
      catalogue: catalogue ?? NO_CATALOGUE,
      recent: (await deps.recent?.list(event.user)) ?? [],
      now: deps.now(),
    });
    try {
      await client.views.publish({ user_id: event.user, view });
    } catch (error) {
      deps.logger.warn({ err: errorFields(error) }, 'views.publish failed');
    }
  };
}
