/** View, Expand, BOM pages, All branches (and its pages) and Refresh on an item card. */
import { ACTION } from '../../../views/actions.js';
import { itemCardAnswer } from '../../answers.js';
import {
  acceptClick,
  actionBase,
  answerClick,
  type ClickArgs,
  itemRequestOf,
  modeFor,
  refOf,
} from '../../clicks.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';

export function itemCardClick(deps: DeliveryDeps & ItemDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'i');
    if (!click) return;
    const base = actionBase(args);
    const request = { ...itemRequestOf(click.state), refresh: base === ACTION.itemRefresh };
    await answerClick(deps, args, {
      what: 'item click',
      working: [{ kind: 'record', noun: 'item', ref: refOf(click.state) }, 'getItem'],
      actor: click.actor,
      mode: modeFor(base === ACTION.itemView ? 'view' : 'in_place', click.onSharedMessage),
      build: () => itemCardAnswer(deps, request, click.actor, args.client),
      threadTs: click.state.th,
    });
  };
}
