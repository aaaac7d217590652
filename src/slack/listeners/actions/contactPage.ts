/** ‹ Previous / Next › on a contact search list. */
import { pageClick } from '../../clicks.js';
import { contactSearchAnswer } from '../../contactAnswers.js';
import type { ContactDeps, DeliveryDeps } from '../../deps.js';

export function contactPageClick(deps: DeliveryDeps & ContactDeps) {
  return pageClick(deps, 'cs', (state, actor) =>
    contactSearchAnswer(deps, { words: state.w, type: state.ty }, state.o, actor),
  );
}
