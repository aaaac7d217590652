/**
 * STOCK_ALLOWED_* / CONTACT_ALLOWED_*: which channels and users may run a command.
 * Pure: the listeners call it before any ERP work and answer the refusal ephemerally.
 */
import type { AccessRule } from '../config/config.js';

export type AccessDecision =
  | { allowed: true }
  | { allowed: false; reason: 'user_not_allowed' | 'channel_not_allowed'; message: string };

type GuardedCommand = '/stock' | '/contact';

/**
 * Empty lists mean every user and every channel. When both lists are set, both must match.
 * The user is checked first: telling someone who may not use the command anywhere that it is
 * "not enabled in this channel" would send them hunting for another channel.
 */
export function checkAccess(
  rule: AccessRule,
  who: { userId: string; channelId: string | undefined },
  command: GuardedCommand,
): AccessDecision {
  if (rule.users.length > 0 && !rule.users.includes(who.userId)) {
    return {
      allowed: false,
      reason: 'user_not_allowed',
      message: `${command} is not enabled for your account; ask an admin.`,
    };
  }
  // No channel (a surface without one) cannot be on a channel list, so it is refused.
  if (
    rule.channels.length > 0 &&
    (who.channelId === undefined || !rule.channels.includes(who.channelId))
  ) {
    return {
      allowed: false,
      reason: 'channel_not_allowed',
      message: `${command} is not enabled in this channel; ask an admin.`,
    };
  }
  return { allowed: true };
}
