/**
 * Clicks that show a card or a page: View, Expand, All branches, Refresh, people paging and
 * search paging. Clicks on the clicker's own (ephemeral) message replace it in place; View,
 * and any click on a message shared to the channel, answer with a new ephemeral message so
 * nobody else's view changes.
 */
import type { ErpRef } from '../../../erp/api.js';
import type { ErpEndpoint } from '../../../erp/errors.js';
import type { ContactCardState, ItemCardState } from '../../../views/actions.js';
import type { SlackMessage } from '../../../views/message.js';
import type { WorkSubject } from '../../../views/progress.js';
import { questionOf } from '../../../views/states.js';
import {
  CONTACT_SURFACE,
  contactCardAnswer,
  ITEM_SURFACE,
  type ItemCardRequest,
  itemCardAnswer,
  type Surface,
  safely,
  searchAnswer,
  workingLine,
} from '../../answers.js';
import { type ClickMode, deliverClickAnswer } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import type { Actor } from '../../payloads.js';
import { acceptClick, type ClickArgs } from './click.js';

export const refOf = (state: ItemCardState | ContactCardState): ErpRef =>
  'c' in state.r ? { code: state.r.c } : { id: state.r.i };

export const labelOf = (ref: ErpRef): string => ('code' in ref ? ref.code : `#${ref.id}`);

/** The item card a button's state describes: which item, and where on it the user was. */
export function itemRequestOf(state: ItemCardState): ItemCardRequest {
  return {
    ref: refOf(state),
    path: state.p,
    pathPages: state.pg,
    branchView: state.m === 'a' ? 'all' : 'best',
    branchPage: state.br,
    bomPage: state.bp,
    question: questionOf(state),
  };
}

type Intent = 'view' | 'in_place';

const modeFor = (intent: Intent, onSharedMessage: boolean): ClickMode =>
  intent === 'view' || onSharedMessage ? 'new' : 'replace';

interface ClickAnswer {
  /** Names the click in the log line when it fails. */
  what: string;
  /** What the working line talks about, and the endpoint whose queue it reports. */
  working: readonly [WorkSubject, ErpEndpoint];
  /** Whose place in the queue the working line reports. */
  actor: Actor;
  mode: ClickMode;
  build: () => Promise<SlackMessage>;
}

/** Delivers what a click asked for, in place or as a new message, within the timing rules. */
function answerClick(deps: ListenerDeps, args: ClickArgs, click: ClickAnswer): Promise<void> {
  const [subject, endpoint] = click.working;
  return deliverClickAnswer({
    respond: args.respond,
    answer: safely(deps, click.what, click.build),
    working: () => workingLine(deps, subject, endpoint, click.actor),
    mode: click.mode,
    timing: deps.timing,
    logger: deps.logger,
  });
}

/** View, Expand, BOM pages, All branches (and its pages) and Refresh on items. */
export function itemCardClick(deps: ListenerDeps, intent: Intent, refresh = false) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'i');
    if (!click) return;
    const { state } = click;
    const ref = refOf(state);
    const request = { ...itemRequestOf(state), refresh };
    await answerClick(deps, args, {
      what: 'item click',
      working: [{ kind: 'record', noun: 'item', ref }, 'getItem'],
      actor: click.actor,
      mode: modeFor(intent, click.onSharedMessage),
      build: () => itemCardAnswer(deps, request, click.actor),
    });
  };
}

/** View, people paging and Refresh on contacts. */
export function contactCardClick(deps: ListenerDeps, intent: Intent, refresh = false) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'c');
    if (!click) return;
    const ref = refOf(click.state);
    const request = { ref, peoplePage: click.state.pp, peopleWords: click.state.pf, refresh };
    await answerClick(deps, args, {
      what: 'contact click',
      working: [{ kind: 'record', noun: 'contact', ref }, 'getContact'],
      actor: click.actor,
      mode: modeFor(intent, click.onSharedMessage),
      build: () => contactCardAnswer(deps, request, click.actor, args.client),
    });
  };
}

/** ‹ Previous / Next › on a search list: served from the cached upstream window. */
function answerPage<Q extends { words: readonly string[] }, Row extends { code: string }>(
  deps: ListenerDeps,
  args: ClickArgs,
  click: { actor: Actor; onSharedMessage: boolean },
  page: { surface: Surface<Q, Row>; query: Q; offset: number },
): Promise<void> {
  const { surface, query, offset } = page;
  return answerClick(deps, args, {
    what: `${surface.noun} page`,
    working: [{ kind: 'search', noun: surface.noun }, surface.endpoints.search],
    actor: click.actor,
    mode: modeFor('in_place', click.onSharedMessage),
    build: () => searchAnswer(surface, deps, query, offset, click.actor),
  });
}

export function itemPageClick(deps: ListenerDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'is');
    if (!click) return;
    const { state } = click;
    const query = { words: state.w, category: state.cat, supplier: state.sup };
    await answerPage(deps, args, click, { surface: ITEM_SURFACE, query, offset: state.o });
  };
}

export function contactPageClick(deps: ListenerDeps) {
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, 'cs');
    if (!click) return;
    const { state } = click;
    const query = { words: state.w, type: state.ty };
    await answerPage(deps, args, click, { surface: CONTACT_SURFACE, query, offset: state.o });
  };
}
