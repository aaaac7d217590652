import type { App } from '@slack/bolt';
import { ACTION, type ActionBase, actionPattern } from '../../../views/actions.js';
import type { ListenerDeps } from '../../deps.js';
import { contactCardClick, contactPageClick, itemCardClick, itemPageClick } from './cards.js';
import type { ClickArgs } from './click.js';
import { revealClick } from './reveal.js';
import { shareClick } from './share.js';

/** Every button the views can draw, and who answers it. */
export function actionHandlers(
  deps: ListenerDeps,
): Record<ActionBase, (args: ClickArgs) => Promise<void>> {
  return {
    [ACTION.itemView]: itemCardClick(deps, 'view'),
    [ACTION.itemExpand]: itemCardClick(deps, 'in_place'),
    [ACTION.itemBomPage]: itemCardClick(deps, 'in_place'),
    [ACTION.itemAllBranches]: itemCardClick(deps, 'in_place'),
    [ACTION.itemBranchPage]: itemCardClick(deps, 'in_place'),
    [ACTION.itemRefresh]: itemCardClick(deps, 'in_place', true),
    [ACTION.itemShare]: shareClick(deps, 'item'),
    [ACTION.itemNextPage]: itemPageClick(deps),
    [ACTION.itemPrevPage]: itemPageClick(deps),
    [ACTION.contactView]: contactCardClick(deps, 'view'),
    [ACTION.contactPeoplePage]: contactCardClick(deps, 'in_place'),
    [ACTION.contactRefresh]: contactCardClick(deps, 'in_place', true),
    [ACTION.contactShare]: shareClick(deps, 'contact'),
    [ACTION.contactReveal]: revealClick(deps),
    [ACTION.contactNextPage]: contactPageClick(deps),
    [ACTION.contactPrevPage]: contactPageClick(deps),
  };
}

export function registerActions(app: App, deps: ListenerDeps): void {
  for (const [base, handler] of Object.entries(actionHandlers(deps))) {
    app.action<import('@slack/bolt').BlockAction>(
      { type: 'block_actions', action_id: actionPattern(base as ActionBase) },
      handler,
    );
  }
}
