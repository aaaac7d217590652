import { ACTION, type ActionBase } from '../../../views/actions.js';
import type { ListenerDeps } from '../../deps.js';
import { searchActionHandlers } from '../search/index.js';
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

/**
 * Who answers a button or select, by its action id: the id's base (before any `:n` that
 * tells two buttons of one message apart) picks the handler.
 */
export function actionHandler(
  deps: ListenerDeps,
): (actionId: string) => ((args: ClickArgs) => Promise<void>) | undefined {
  const handlers: Partial<Record<string, (args: ClickArgs) => Promise<void>>> = {
    ...actionHandlers(deps),
    ...searchActionHandlers(deps),
  };
  const ids = new RegExp(`^(${Object.keys(handlers).join('|')})(?::\\d+)?$`);
  return (actionId) => {
    const base = ids.exec(actionId)?.[1];
    return base === undefined ? undefined : handlers[base];
  };
}
