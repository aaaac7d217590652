import type { App, ViewSubmitAction } from '@slack/bolt';
import { SEARCH } from '../../../views/searchModal.js';
import type { ListenerDeps } from '../../deps.js';
import { shareFromSearch } from './shareFromSearch.js';

export function registerViews(app: App, deps: ListenerDeps): void {
  app.view<ViewSubmitAction>(
    { type: 'view_submission', callback_id: SEARCH.callbackId },
    shareFromSearch(deps),
  );
}
