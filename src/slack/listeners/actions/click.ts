import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
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
): Promise<Click<S> | undefined> {
  await args.ack();
  const refuse = async (text: string) => {
    await sendSafely(deps.logger, args.respond, privateReply(noticeMessage(text)));
    return undefined;
  };
  const payload = BlockActionPayload.safeParse(args.body);
  if (!payload.success) {
    deps.logger.warn(
      { issues: payload.error.issues.map((issue) => issue.path.join('.')) },
      'block_actions payload did not match the expected shape',
    );
    return refuse(unreadableText('click_shape'));
  }
  const body = payload.data;
  const action = body.actions[0];
  const decoded = decodeState(action?.value);
  if (!decoded.ok || decoded.state.t !== expected) {
    deps.logger.info(
      { action: action?.action_id, reason: decoded.ok ? 'wrong_kind' : decoded.reason },
      'refused a button value',
    );
    return refuse(unreadableText('stale_button'));
  }
  const actor: Actor = {
    userId: body.user.id,
    teamId: body.team?.id ?? body.user.team_id,
    channelId: body.channel?.id,
  };
  const family = expected === 'i' || expected === 'is' ? 'stock' : 'contact';
  const decision: AccessDecision = checkAccess(
    deps.access[family],
    actor,
    family === 'stock' ? '/stock' : '/contact',
  );
  if (!decision.allowed) return refuse(decision.message);
  return {
    actor,
    state: decoded.state as Extract<ButtonState, { t: S }>,
    onSharedMessage: body.container?.is_ephemeral === false,
  };
}
