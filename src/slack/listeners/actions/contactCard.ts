/** View, people paging and Refresh on a contact card. */
import { cardClick, refOf } from '../../clicks.js';
import { contactCardAnswer } from '../../contactAnswers.js';
import type { ContactDeps, DeliveryDeps } from '../../deps.js';

export function contactCardClick(deps: DeliveryDeps & ContactDeps) {
  return cardClick(deps, 'c', ({ state, actor }, refresh, { client }) => {
    const request = {
      ref: refOf(state),
      peoplePage: state.pp,
      allPeople: state.m === 'a',
      peopleWords: state.pf,
      refresh,
    };
    return contactCardAnswer(deps, request, actor, client);
  });
}
