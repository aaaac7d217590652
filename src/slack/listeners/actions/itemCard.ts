/** View, Expand, BOM pages, All branches (and its pages), the parts and Refresh on an item card. */
import { itemCardAnswer } from '../../answers.js';
import { cardClick, itemRequestOf } from '../../clicks.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';

export function itemCardClick(deps: DeliveryDeps & ItemDeps) {
  return cardClick(deps, 'i', ({ state, actor }, refresh, { client }) =>
    itemCardAnswer(deps, { ...itemRequestOf(state), refresh }, actor, client),
  );
}
