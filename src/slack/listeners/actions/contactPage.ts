/** ‹ Previous / Next › on a contact search list: served from the cached upstream window. */
import { contactSearchAnswer } from '../../answers.js';
import { acceptClick, answerClick, type ClickArgs, modeFor } from '../../clicks.js';
import type { ContactDeps, DeliveryDeps } from '../../deps.js';

export function contactPageClick(deps: DeliveryDeps & ContactDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'cs');
    if (!click) return;
    const { state } = click;
    const query = { words: state.w, type: state.ty };
    await answerClick(deps, args, {
      what: 'contact page',
      working: [{ kind: 'search', noun: 'contact' }, 'searchContact'],
      actor: click.actor,
      mode: modeFor('in_place', click.onSharedMessage),
      build: () => contactSearchAnswer(deps, query, state.o, click.actor),
    });
  };
}
