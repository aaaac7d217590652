/**
 * Messages shared to a channel say who shared them and can be taken back by that person:
 * "Shared by @name" heads the message and a "Remove" button ends it. Anyone else who presses
 * Remove is told privately who can. The listener checks the clicking user against the value.
 */
import type { ActionsBlock, Button, KnownBlock } from '@slack/types';
import { decodeState, type SharedRemoveState, VALUE_VERSION } from './actions.js';
import { context, plain, section } from './blocks.js';
import { LIMITS, truncate } from './limits.js';
import type { SlackMessage } from './message.js';

export const SHARED_REMOVE_ACTION = 'shared_remove';

/** A Slack user id as Slack sends it (`U…`, or `W…` on Enterprise Grid). */
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;

/** Never throws: anything but a well-formed Remove value is `undefined`. */
export function decodeSharedRemove(value: unknown): SharedRemoveState | undefined {
  const decoded = decodeState(value);
  return decoded.ok && decoded.state.t === 'rm' ? decoded.state : undefined;
}

function removeButton(sharerId: string): Button {
  return {
    type: 'button',
    action_id: SHARED_REMOVE_ACTION,
    text: plain('Remove'),
    value: JSON.stringify({ v: VALUE_VERSION, t: 'rm', u: sharerId } satisfies SharedRemoveState),
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
 * The shared message with "Shared by @name" first and Remove after its last buttons (a new
 * row when the last block is not one, or is full). A sharer id Slack would not send leaves the
 * message as it was: a mention of nobody helps nobody.
 */
export function withSharedBy(message: SlackMessage, sharerId: string): SlackMessage {
  if (!USER_ID.test(sharerId)) return message;
  const blocks: KnownBlock[] = [context(`Shared by <@${sharerId}>`), ...message.blocks];
  const last = blocks.at(-1);
  if (last?.type === 'actions' && last.elements.length < LIMITS.actionsElements) {
    blocks[blocks.length - 1] = { ...last, elements: [...last.elements, removeButton(sharerId)] };
  } else {
    const row: ActionsBlock = { type: 'actions', elements: [removeButton(sharerId)] };
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
  const who = USER_ID.test(sharerId) ? `<@${sharerId}>` : 'the person who shared it';
  const text = `Only ${who} can remove this message.`;
  return { text, blocks: [section(text)] };
}
