/**
 * Clicks that show a card or a page: View, Expand, All branches, Refresh, people paging and
 * search paging. Clicks on the clicker's own (ephemeral) message replace it in place; View,
 * and any click on a message shared to the channel, answer with a new ephemeral message so
 * nobody else's view changes.
 */
import type { ErpRef } from '../../../erp/api.js';
import type { ContactCardState, ItemCardState } from '../../../views/actions.js';
import {
  contactCardAnswer,
  contactSearchAnswer,
  itemCardAnswer,
  itemSearchAnswer,
  safely,
  workingLine,
} from '../../answers.js';
import { type ClickMode, deliverClickAnswer } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { acceptClick, type ClickArgs } from './click.js';

export const refOf = (state: ItemCardState | ContactCardState): ErpRef =>
  'c' in state.r ? { code: state.r.c } : { id: state.r.i };

export const labelOf = (ref: ErpRef): string => ('code' in ref ? ref.code : `#${ref.id}`);

type Intent = 'view' | 'in_place';

const modeFor = (intent: Intent, onSharedMessage: boolean): ClickMode =>
  intent === 'view' || onSharedMessage ? 'new' : 'replace';

/** View, Expand, BOM pages, All branches and Refresh on items. */
export function itemCardClick(deps: ListenerDeps, intent: Intent, refresh = false) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'i');
    if (!click) return;
    const { state } = click;
    const ref = refOf(state);
    await deliverClickAnswer({
      respond: args.respond,
      answer: safely(deps, 'item click', () =>
        itemCardAnswer(
          deps,
          {
            ref,
            path: state.p,
            branchView: state.m === 'a' ? 'all' : 'best',
            bomPage: state.bp,
            refresh,
          },
          click.actor,
        ),
      ),
      working: () => workingLine(deps, `Looking up ${labelOf(ref)}`, 'getItem'),
      mode: modeFor(intent, click.onSharedMessage),
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}

/** View, people paging and Refresh on contacts. */
export function contactCardClick(deps: ListenerDeps, intent: Intent, refresh = false) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'c');
    if (!click) return;
    const ref = refOf(click.state);
    await deliverClickAnswer({
      respond: args.respond,
      answer: safely(deps, 'contact click', () =>
        contactCardAnswer(
          deps,
          { ref, peoplePage: click.state.pp, refresh },
          click.actor,
          args.client,
        ),
      ),
      working: () => workingLine(deps, `Looking up ${labelOf(ref)}`, 'getContact'),
      mode: modeFor(intent, click.onSharedMessage),
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}

/** ‹ Previous / Next › on item search lists: served from the cached upstream window. */
export function itemPageClick(deps: ListenerDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'is');
    if (!click) return;
    const { state } = click;
    const query = { words: state.w, category: state.cat, supplier: state.sup };
    await deliverClickAnswer({
      respond: args.respond,
      answer: safely(deps, 'item page', () => itemSearchAnswer(deps, query, state.o, click.actor)),
      working: () => workingLine(deps, 'Searching items', 'searchItems'),
      mode: modeFor('in_place', click.onSharedMessage),
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}

/** ‹ Previous / Next › on contact search lists. */
export function contactPageClick(deps: ListenerDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'cs');
    if (!click) return;
    const { state } = click;
    const query = { words: state.w, type: state.ty };
    await deliverClickAnswer({
      respond: args.respond,
      answer: safely(deps, 'contact page', () =>
        contactSearchAnswer(deps, query, state.o, click.actor),
      ),
      working: () => workingLine(deps, 'Searching contacts', 'searchContact'),
      mode: modeFor('in_place', click.onSharedMessage),
      timing: deps.timing,
      logger: deps.logger,
    });
  };
}
