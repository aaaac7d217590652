/** ‹ Previous / Next › on an item search list: served from the cached upstream window. */
import { itemSearchAnswer } from '../../answers.js';
import { acceptClick, answerClick, type ClickArgs, modeFor } from '../../clicks.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';

export function itemPageClick(deps: DeliveryDeps & ItemDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'is');
    if (!click) return;
    const { state } = click;
    const query = { words: state.w, category: state.cat, supplier: state.sup };
    await answerClick(deps, args, {
      what: 'item page',
      working: [{ kind: 'search', noun: 'item' }, 'searchItems'],
      actor: click.actor,
      mode: modeFor('in_place', click.onSharedMessage),
      build: () => itemSearchAnswer(deps, query, state.o, click.actor),
    });
  };
}
