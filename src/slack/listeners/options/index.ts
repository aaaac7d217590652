import type { App } from '@slack/bolt';
import { SEARCH } from '../../../views/searchModal.js';
import type { ListenerDeps } from '../../deps.js';
import { itemSuggestions } from './itemSuggestions.js';

export function registerOptions(app: App, deps: ListenerDeps): void {
  app.options({ type: 'block_suggestion', action_id: SEARCH.itemAction }, itemSuggestions(deps));
}
