/**
 * What every button click starts with: the acknowledgement, the payload and the button's
 * state read and checked, the access rules of its command; and how its answer is delivered.
 */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { ErpEndpoint } from '../erp/errors.js';
import type { ErpRef } from '../erp/schemas.js';
import { type AccessDecision, checkAccess } from '../privacy/access.js';
import {
  ACTION,
  type ButtonState,
  type ContactCardState,
  decodeState,
  type ItemCardState,
  partOf,
  questionOf,
} from '../views/actions.js';
import { noticeMessage } from '../views/feedback.js';
import type { SlackMessage } from '../views/message.js';
import type { WorkSubject } from '../views/progress.js';
import { unreadableText } from '../views/unreadable.js';
import { type ItemCardRequest, safely, workingLine } from './answers.js';
import { type ClickMode, deliverClickAnswer, privateReply, sendSafely } from './delivery.js';
import type { DeliveryDeps, ItemDeps } from './deps.js';
import { ChannelId, PayloadUser, TeamId } from './ids.js';
import { type Actor, BlockActionPayload } from './payloads.js';

export type ClickArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

interface Click<S extends ButtonState['t']> {
  actor: Actor;
  state: Extract<ButtonState, { t: S }>;
  /** The button sat on a message others can see (shared to the channel). */
  onSharedMessage: boolean;
  /** The presser's own workspace (`user.team_id`): another one in Slack Connect channels. */
  userTeamId: string | undefined;
  /** The payload as checked here: listeners read it rather than parse it again. */
  body: BlockActionPayload;
}

/** Why a click was refused before its listener ran: the reveal audit records it. */
type ClickRefusal =
  | 'invalid_payload'
  | 'invalid_value'
  | 'expired_value'
  | Extract<AccessDecision, { allowed: false }>['reason'];

/** Who a refused click came from, as far as the payload says, and what it pointed at. */
interface RefusedClick {
  reason: ClickRefusal;
  actor: Actor;
  /** The button's state, when it could be read. */
  state: ButtonState | undefined;
}

/** Just enough of a payload to say who pressed, when the full shape did not match. */
const LooseActor = z
  .object({
    user: PayloadUser.loose(),
    team: z.object({ id: TeamId }).loose().nullish(),
    channel: z.object({ id: ChannelId }).loose().nullish(),
  })
  .loose();

function looseActor(body: unknown): Actor {
  const parsed = LooseActor.safeParse(body);
  if (!parsed.success) return { userId: 'unknown', teamId: undefined, channelId: undefined };
  const { user, team, channel } = parsed.data;
  return {
    userId: user.id,
    teamId: team?.id ?? user.team_id,
    channelId: channel?.id,
    userTeamId: user.team_id,
  };
}

/**
 * Acknowledges a click and reads it: the payload fields we use, the button's state (of the
 * kind this action expects) and the access rules of its command. Every refusal is answered
 * here, ephemerally, without touching the clicked message; `undefined` means "answered".
 */
export async function acceptClick<S extends ButtonState['t']>(
  deps: Pick<DeliveryDeps, 'logger' | 'access'>,
  args: ClickArgs,
  expected: S,
  onRefused?: (refusal: RefusedClick) => void,
): Promise<Click<S> | undefined> {
  await args.ack();
  const refuse = async (text: string, refusal: RefusedClick) => {
    onRefused?.(refusal);
    await sendSafely(deps.logger, args.respond, privateReply(noticeMessage(text)));
    return undefined;
  };
  const payload = BlockActionPayload.safeParse(args.body);
  if (!payload.success) {
    deps.logger.warn(
      { issues: payload.error.issues.map((issue) => issue.path.join('.')) },
      'block_actions payload did not match the expected shape',
    );
    return refuse(unreadableText('click_shape'), {
      reason: 'invalid_payload',
      actor: looseActor(args.body),
      state: undefined,
    });
  }
  const body = payload.data;
  const action = body.actions[0];
  const decoded = decodeState(action?.value);
  const actor = clickActor(body);
  if (!decoded.ok || decoded.state.t !== expected) {
    deps.logger.info(
      {
        action: action?.action_id,
        userId: actor.userId,
        reason: decoded.ok ? 'wrong_kind' : decoded.reason,
      },
      'refused a button value',
    );
    return refuse(unreadableText('stale_button'), {
      reason: !decoded.ok && decoded.reason === 'stale_version' ? 'expired_value' : 'invalid_value',
      actor,
      state: decoded.ok ? decoded.state : undefined,
    });
  }
  const family =
    decoded.state.t === 'rc'
      ? decoded.state.f
      : expected === 'i' || expected === 'is'
        ? 'stock'
        : 'contact';
  const decision: AccessDecision = checkAccess(
    deps.access[family],
    actor,
    family === 'stock' ? '/stock' : '/contact',
  );
  if (!decision.allowed) {
    return refuse(decision.message, {
      reason: decision.reason,
      actor,
      state: decoded.state,
    });
  }
  return {
    actor,
    state: decoded.state as Extract<ButtonState, { t: S }>,
    onSharedMessage: body.container?.is_ephemeral === false,
    userTeamId: body.user.team_id,
    body,
  };
}

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
    part: partOf(state),
    question: questionOf(state),
    threadTs: state.th,
  };
}

/** The action id without the `:n` that tells two buttons of one message apart. */
export const actionBase = (args: ClickArgs): string => args.action.action_id.split(':')[0] ?? '';

/**
 * View opens a new ephemeral message; other clicks on the clicker's own (ephemeral) message
 * replace it in place, and any click on a message shared to the channel answers with a new
 * ephemeral message so nobody else's view changes.
 */
const modeFor = (intent: 'view' | 'in_place', onSharedMessage: boolean): ClickMode =>
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
  /** The button's own state: "Try again" on a failure that may pass presses it again. */
  state: ButtonState;
  /** A new message goes to this thread. */
  threadTs?: string;
}

type AnswerDeps = Pick<ItemDeps, 'lookup'> & Pick<DeliveryDeps, 'logger' | 'access' | 'timing'>;

/** Delivers what a click asked for, in place or as a new message, within the timing rules. */
function answerClick(deps: AnswerDeps, args: ClickArgs, click: ClickAnswer): Promise<void> {
  const [subject, endpoint] = click.working;
  return deliverClickAnswer({
    respond: args.respond,
    answer: safely(deps.logger, click.what, click.build, {
      actionId: args.action.action_id,
      state: click.state,
    }),
    working: () => workingLine(deps, subject, endpoint, click.actor),
    mode: click.mode,
    threadTs: click.threadTs,
    timing: deps.timing,
    logger: deps.logger,
  });
}

/** What each card's buttons ask the ERP for, and which of them are View and Refresh. */
const CARDS = {
  i: { noun: 'item', endpoint: 'getItem', view: ACTION.itemView, refresh: ACTION.itemRefresh },
  c: {
    noun: 'contact',
    endpoint: 'getContact',
    view: ACTION.contactView,
    refresh: ACTION.contactRefresh,
  },
} as const;

/**
 * A button on an item or contact card: the card again, as the button's state describes it
 * (`refresh`: past the cache); View as a new message, the others in place.
 */
export function cardClick<S extends keyof typeof CARDS>(
  deps: AnswerDeps,
  kind: S,
  card: (click: Click<S>, refresh: boolean, args: ClickArgs) => Promise<SlackMessage>,
) {
  const { noun, endpoint, view, refresh } = CARDS[kind];
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, kind);
    if (!click) return;
    const base = actionBase(args);
    const state: ItemCardState | ContactCardState = click.state;
    await answerClick(deps, args, {
      what: `${noun} click`,
      working: [{ kind: 'record', noun, ref: refOf(state) }, endpoint],
      actor: click.actor,
      mode: modeFor(base === view ? 'view' : 'in_place', click.onSharedMessage),
      build: () => card(click, base === refresh, args),
      state,
      threadTs: state.t === 'i' ? state.th : undefined,
    });
  };
}

const LISTS = {
  is: { noun: 'item', endpoint: 'searchItems' },
  cs: { noun: 'contact', endpoint: 'searchContact' },
} as const;

/**
 * ‹ Previous / Next › on an item or contact search list: the page the button's state names,
 * served from the cached upstream window, in place.
 */
export function pageClick<S extends keyof typeof LISTS>(
  deps: AnswerDeps,
  kind: S,
  page: (state: Click<S>['state'], actor: Actor) => Promise<SlackMessage>,
) {
  const { noun, endpoint } = LISTS[kind];
  return async (args: ClickArgs): Promise<void> => {
    const click = await acceptClick(deps, args, kind);
    if (!click) return;
    await answerClick(deps, args, {
      what: `${noun} page`,
      working: [{ kind: 'search', noun }, endpoint],
      actor: click.actor,
      mode: modeFor('in_place', click.onSharedMessage),
      build: () => page(click.state, click.actor),
      state: click.state,
    });
  };
}

/** Who pressed a button, and where: the presser's own team kept apart from the payload's. */
export function clickActor(body: BlockActionPayload): Actor {
  return {
    userId: body.user.id,
    teamId: body.team?.id ?? body.user.team_id,
    channelId: body.channel?.id,
    userTeamId: body.user.team_id,
  };
}
