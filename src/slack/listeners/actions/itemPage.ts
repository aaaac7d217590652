/** ‹ Previous / Next › on an item search list. */
import { itemSearchAnswer } from '../../answers.js';
import { pageClick } from '../../clicks.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';

export function itemPageClick(deps: DeliveryDeps & ItemDeps) {
  return pageClick(deps, 'is', (state, actor) =>
    itemSearchAnswer(
      deps,
      { words: state.w, category: state.cat, supplier: state.sup },
      state.o,
      actor,
    ),
  );
}
