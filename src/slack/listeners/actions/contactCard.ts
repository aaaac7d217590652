/** View, people paging and Refresh on a contact card. */
import { ACTION } from '../../../views/actions.js';
import { contactCardAnswer } from '../../answers.js';
import {
  acceptClick,
  actionBase,
  answerClick,
  type ClickArgs,
  modeFor,
  refOf,
} from '../../clicks.js';
import type { ContactDeps, DeliveryDeps } from '../../deps.js';

export function contactCardClick(deps: DeliveryDeps & ContactDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'c');
    if (!click) return;
    const base = actionBase(args);
    const ref = refOf(click.state);
    const request = {
      ref,
      peoplePage: click.state.pp,
      allPeople: click.state.m === 'a',
      peopleWords: click.state.pf,
      refresh: base === ACTION.contactRefresh,
    };
    await answerClick(deps, args, {
      what: 'contact click',
      working: [{ kind: 'record', noun: 'contact', ref }, 'getContact'],
      actor: click.actor,
      mode: modeFor(base === ACTION.contactView ? 'view' : 'in_place', click.onSharedMessage),
      build: () => contactCardAnswer(deps, request, click.actor, args.client),
    });
  };
}
