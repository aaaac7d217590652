import type { App, ViewSubmitAction } from '@slack/bolt';
import { FIND_CONTACT } from '../../../views/findContact.js';
import { SEARCH } from '../../../views/searchModal.js';
import type { ListenerDeps } from '../../deps.js';
import { findContactSubmitted } from './findContact.js';
import { shareFromSearch } from './shareFromSearch.js';

export function registerViews(app: App, deps: ListenerDeps): void {
  app.view<ViewSubmitAction>(
    { type: 'view_submission', callback_id: SEARCH.callbackId },
    shareFromSearch(deps),
  );
  app.view<ViewSubmitAction>(
    { type: 'view_submission', callback_id: FIND_CONTACT.callbackId },
    findContactSubmitted(deps),
  );
}
