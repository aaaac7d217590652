import type { App, ViewSubmitAction } from '@slack/bolt';
import { FIND_CONTACT } from '../../../views/findContact.js';
import { SEARCH } from '../../../views/searchModal.js';
import { WATCH_MODAL } from '../../../views/watches.js';
import type { ListenerDeps } from '../../deps.js';
import { findContactSubmitted } from './findContact.js';
import { shareFromSearch } from './shareFromSearch.js';
import { watchModalSubmit } from './watchModal.js';

export function registerViews(app: App, deps: ListenerDeps): void {
  app.view<ViewSubmitAction>(
    { type: 'view_submission', callback_id: SEARCH.callbackId },
    shareFromSearch(deps),
  );
  app.view<ViewSubmitAction>(
    { type: 'view_submission', callback_id: WATCH_MODAL.callbackId },
    watchModalSubmit(deps),
  );
  app.view(
    { type: 'view_submission', callback_id: FIND_CONTACT.callbackId },
    findContactSubmitted(deps),
  );
}
