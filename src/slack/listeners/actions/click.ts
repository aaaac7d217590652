import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import type { AccessDecision } from '../../../privacy/access.js';
import { checkAccess } from '../../../privacy/access.js';
import { type ButtonState, decodeState } from '../../../views/actions.js';
import { noticeMessage } from '../../../views/feedback.js';
import { unreadableText } from '../../../views/unreadable.js';
import { privateReply, sendSafely } from '../../delivery.js';
import type { ListenerDeps } from '../../deps.js';
import { type Actor, BlockActionPayload } from '../../payloads.js';

export type ClickArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

export interface Click<S extends ButtonState['t']> {
  actor: Actor;
  state: Extract<ButtonState, { t: S }>;
  /** The button sat on a message others can see (shared to the channel). */
  onSharedMessage: boolean;
  /** The presser's own workspace (`user.team_id`): another one in Slack Connect channels. */
  userTeamId: string | undefined;
}

/** Why a click was refused before its listener ran: the reveal audit records it. */
export type ClickRefusal =
  | 'invalid_payload'
  | 'invalid_value'
  | 'expired_value'
  | Extract<AccessDecision, { allowed: false }>['reason'];

/** Who a refused click came from, as far as the payload says, and what it pointed at. */
export interface RefusedClick {
  reason: ClickRefusal;
  actor: Actor;
  /** The button's state, when it could be read. */
  state: ButtonState | undefined;
}

/** Just enough of a payload to say who pressed, when the full shape did not match. */
const LooseActor = z
  .object({
    user: z.object({ id: z.string(), team_id: z.string().optional() }).loose(),
    team: z.object({ id: z.string() }).loose().nullish(),
    channel: z.object({ id: z.string() }).loose().nullish(),
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
  deps: ListenerDeps,
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
  const actor: Actor = {
    userId: body.user.id,
    teamId: body.team?.id ?? body.user.team_id,
    channelId: body.channel?.id,
    userTeamId: body.user.team_id,
  };
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
  const family = expected === 'i' || expected === 'is' ? 'stock' : 'contact';
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
  };
}
