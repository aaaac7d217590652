import type { App } from '@slack/bolt';
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
 * One Bolt listener for every button: Bolt runs each registered listener's middleware chain
 * on every request (a slash command too), so fifteen listeners cost a cached /stock about a
 * tenth of its CPU time. The id's base picks the handler here instead.
 */
export function registerActions(app: App, deps: ListenerDeps): void {
  const handlers: Partial<Record<string, (args: ClickArgs) => Promise<void>>> = {
    ...actionHandlers(deps),
    ...searchActionHandlers(deps),
  };
  const ids = new RegExp(`^(${Object.keys(handlers).join('|')})(?::\\d+)?$`);
  app.action<import('@slack/bolt').BlockAction>(
    { type: 'block_actions', action_id: ids },
    async (args) => {
      const base = ids.exec(args.action.action_id)?.[1];
      const handler = base === undefined ? undefined : handlers[base];
      if (handler) await handler(args);
    },
  );
}
