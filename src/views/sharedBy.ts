/**
 * Messages shared to a channel say who shared them and can be taken back by that person:
 * "Shared by @name" heads the message and a "Remove" button ends it. The button carries only
 * the share's id; who may remove it is decided from the app's own record of the share
 * (slack/shares.ts), never from the value. Every word the sharer and the others read about a
 * share and its removal is here.
 */
import type { ActionsBlock, Button, KnownBlock } from '@slack/types';
import { z } from 'zod';
import { MEMBER_ID } from '../ids/member.js';
import { decodeState, SHARE_ID, type SharedRemoveState, VALUE_VERSION } from './actions.js';
import { context, LIMITS, plain, section, truncate } from './blocks.js';
import type { SlackMessage } from './message.js';

export const SHARED_REMOVE_ACTION = 'shared_remove';

const CHANNEL_ID = /^[CGD][A-Z0-9]{2,30}$/;

/** The value Remove buttons carried before shares were recorded: the sharer's id. */
const OldRemoveValue = z
  .object({ v: z.literal(VALUE_VERSION), t: z.literal('rm'), u: z.string().regex(MEMBER_ID) })
  .strict();

type SharedRemoveValue =
  | { kind: 'share'; shareId: string }
  /** A button from before: it names a sharer, which is no longer trusted. */
  | { kind: 'old'; sharerId: string };

/** Never throws: anything but a well-formed Remove value is `undefined`. */
export function decodeSharedRemove(value: unknown): SharedRemoveValue | undefined {
  const decoded = decodeState(value);
  if (decoded.ok)
    return decoded.state.t === 'rm' ? { kind: 'share', shareId: decoded.state.s } : undefined;
  if (decoded.reason !== 'invalid' || typeof value !== 'string') return undefined;
  const old = OldRemoveValue.safeParse(parseJson(value));
  return old.success ? { kind: 'old', sharerId: old.data.u } : undefined;
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

function removeButton(shareId: string): Button {
  return {
    type: 'button',
    action_id: SHARED_REMOVE_ACTION,
    text: plain('Remove'),
    value: JSON.stringify({ v: VALUE_VERSION, t: 'rm', s: shareId } satisfies SharedRemoveState),
    accessibility_label: 'Remove this shared message (only the person who shared it can)',
    // Deleting asks first (Slack's confirm dialog): a shared answer may be what others rely on.
    confirm: {
      title: plain('Remove this message?'),
      text: plain('It disappears for everyone in the conversation.'),
      confirm: plain('Remove'),
      deny: plain('Keep it'),
      style: 'danger',
    },
  };
}

/**
 * The shared message with "Shared by @name" first and Remove (for share `shareId`) after its
 * last buttons (a new row when the last block is not one, or is full). A sharer id Slack would
 * not send, or a share id not of the app's making, leaves the message as it was: a mention of
 * nobody helps nobody.
 */
export function withSharedBy(
  message: SlackMessage,
  sharerId: string,
  shareId: string,
): SlackMessage {
  if (!MEMBER_ID.test(sharerId) || !SHARE_ID.safeParse(shareId).success) return message;
  const blocks: KnownBlock[] = [context(`Shared by <@${sharerId}>`), ...message.blocks];
  const last = blocks.at(-1);
  if (last?.type === 'actions' && last.elements.length < LIMITS.actionsElements) {
    blocks[blocks.length - 1] = { ...last, elements: [...last.elements, removeButton(shareId)] };
  } else {
    const row: ActionsBlock = { type: 'actions', elements: [removeButton(shareId)] };
    blocks.push(row);
  }
  // Two blocks more than the card: the card's own budget leaves room, but never past 50.
  const fitted =
    blocks.length > LIMITS.blocks
      ? [...blocks.slice(0, LIMITS.blocks - 1), blocks.at(-1) as KnownBlock]
      : blocks;
  return {
    text: truncate(`Shared by <@${sharerId}>: ${message.text}`, LIMITS.fallbackText),
    blocks: fitted,
  };
}

/** The private reply to the sharer when Slack would not delete the message. */
export function removeFailed(): SlackMessage {
  const text =
    'I could not remove that message. You can delete it yourself from its ⋯ menu, or ask an admin.';
  return { text, blocks: [section(text)] };
}

/** The private reply to anyone else who presses Remove. */
export function removeRefusal(sharerId: string): SlackMessage {
  // The id is checked against Slack's shape, so the mention is the only markup here.
  const who = MEMBER_ID.test(sharerId) ? `<@${sharerId}>` : 'the person who shared it';
  const text = `Only ${who} can remove this message.`;
  return { text, blocks: [section(text)] };
}

/**
 * A Remove button from before shares were recorded: it is no longer trusted to say who shared
 * the message, so it removes nothing.
 */
export function removeStale(sharerId: string): SlackMessage {
  const who = MEMBER_ID.test(sharerId) ? `<@${sharerId}>` : 'the person who shared it';
  const text = `This Remove button is from an older version of the app and no longer works. If ${who} wants the message gone, a workspace admin can delete it.`;
  return { text, blocks: [section(text)] };
}

/** Remove on a share the app no longer has a record of (too old, or never recorded here). */
export function removeUnavailable(): SlackMessage {
  const text =
    'This message can no longer be removed from here: it was shared too long ago. A workspace admin can delete it.';
  return { text, blocks: [section(text)] };
}

const where = (channelId: string | undefined) =>
  channelId && CHANNEL_ID.test(channelId) ? `<#${channelId}>` : 'the channel';

/** What the sharer's "Shared to #…" confirmation becomes once the message is removed. */
export function shareRemoved(channelId: string | undefined): SlackMessage {
  const text = `Removed what you shared to ${where(channelId)}.`;
  return { text, blocks: [context(`:wastebasket: ${text}`)] };
}

/**
 * The second press of the same Share within a few minutes: nothing is posted again. The first
 * may still be under way, or may yet fail, so this promises only what that press will do.
 * `me`: the search modal's "Only me", whose card comes as a direct message.
 */
export function alreadyShared(to: string | undefined): SlackMessage {
  const text =
    to === 'me'
      ? 'You asked for this card a moment ago, so I did not send it again: it comes once, or I tell you why it could not.'
      : `You pressed Share on this a moment ago, so I did not post it again: that first press shares it to ${where(to)}, or tells you why it could not.`;
  return { text, blocks: [section(text)] };
}
