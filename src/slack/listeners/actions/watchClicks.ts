/**
 * What every watch button starts with: the payload fields read, the button's own state
 * (zod-checked), the /stock access lists, and the watches switched on. Refusals are answered
 * here, privately; `undefined` means "answered".
 */
import { checkAccess, type InternalFiguresPolicy } from '../../../privacy/access.js';
import { noticeMessage } from '../../../views/feedback.js';
import { watchesNotReadyText } from '../../../views/help.js';
import type { SlackMessage } from '../../../views/message.js';
import { unreadableText } from '../../../views/unreadable.js';
import type { Watches } from '../../../watches/index.js';
import { internalFiguresFor } from '../../answers.js';
import { type ClickArgs, clickActor } from '../../clicks.js';
import { privateReply, sendSafely } from '../../delivery.js';
import type { DeliveryDeps, WatchDeps } from '../../deps.js';
import { type Actor, BlockActionPayload } from '../../payloads.js';

interface WatchClick<S> {
  actor: Actor;
  state: S;
  watches: Watches;
  /** The presser is a full member of the installing workspace (asked only when needed). */
  internalMember: () => Promise<boolean>;
}

/** Who is a full member: the same answer that guards internal figures. */
export type WatchClickDeps = DeliveryDeps & WatchDeps & { internal?: InternalFiguresPolicy };

/** A private answer to the presser, where there is somewhere to put one. */
export async function replyPrivately(
  deps: Pick<DeliveryDeps, 'logger'>,
  args: ClickArgs,
  message: SlackMessage,
): Promise<void> {
  if ((args.body as { response_url?: unknown }).response_url === undefined) return;
  await sendSafely(deps.logger, args.respond, privateReply(message));
}

export async function acceptWatchClick<S>(
  deps: WatchClickDeps,
  args: ClickArgs,
  decode: (value: unknown) => S | undefined,
): Promise<WatchClick<S> | undefined> {
  await args.ack();
  const refuse = async (text: string) => {
    await replyPrivately(deps, args, noticeMessage(text));
    return undefined;
  };
  const payload = BlockActionPayload.safeParse(args.body);
  if (!payload.success) return refuse(unreadableText('click_shape'));
  const body = payload.data;
  const action = body.actions[0];
  const state = decode(action?.value);
  const actor = clickActor(body);
  if (state === undefined) {
    deps.logger.info(
      { action: action?.action_id, userId: actor.userId },
      'refused a watch button value',
    );
    return refuse(unreadableText('stale_button'));
  }
  const decision = checkAccess(deps.access.stock, actor, '/stock');
  if (!decision.allowed) return refuse(decision.message);
  if (!deps.watches) return refuse(watchesNotReadyText('watch'));
  return {
    actor,
    state,
    watches: deps.watches,
    internalMember: () => internalFiguresFor(deps.internal, actor, args.client),
  };
}

/**
 * Who may press Remove, Stop watching and Snooze on watch `id`. Its creator, always. Anyone
 * else only in the watch's own channel (the service checks that) and only as a full member
 * of the installing workspace: a Slack Connect partner or a guest sits in shared channels
 * and sees the alert's buttons, but must not silence or delete the members' watches (the
 * safer default; SECURITY.md says so). App Home has no channel to hold a press to: there
 * only the presser's own.
 */
export async function mayTouchWatch(click: WatchClick<unknown>, id: string): Promise<boolean> {
  if (click.actor.channelId !== undefined && (await click.internalMember())) return true;
  const mine = await click.watches.service.listMine(click.actor.userId);
  return mine.watches.some((w) => w.id === id);
}
