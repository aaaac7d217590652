import type { AnyMiddlewareArgs, App, Middleware, ViewSubmitAction } from '@slack/bolt';
import { FIND_CONTACT } from '../../../views/findContactModal.js';
import { SEARCH } from '../../../views/searchModal.js';
import { WATCH_MODAL } from '../../../views/watchModal.js';
import type { ListenerDeps } from '../../deps.js';
import { findContactSubmitted } from './findContactSubmitted.js';
import { shareFromSearch } from './shareFromSearch.js';
import { watchModalSubmit } from './watchModal.js';

/** A submission carries `response_urls` when its modal has a response_url_enabled input. */
export function registerViews(
  app: App,
  deps: ListenerDeps,
  screen: Middleware<AnyMiddlewareArgs>,
): void {
  app.view<ViewSubmitAction>(
    { type: 'view_submission', callback_id: SEARCH.callbackId },
    screen,
    shareFromSearch(deps),
  );
  app.view<ViewSubmitAction>(
    { type: 'view_submission', callback_id: WATCH_MODAL.callbackId },
    screen,
    watchModalSubmit(deps),
  );
  app.view(
    { type: 'view_submission', callback_id: FIND_CONTACT.callbackId },
    screen,
    findContactSubmitted(deps),
  );
}
