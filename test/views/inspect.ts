/**
 * Reading view output in the views tests, on top of the shared readers (test/helpers/blocks.ts):
 * buttons with their decoded state, mrkdwn texts, blocks by type, foreign markup.
 */
import type { KnownBlock } from '@slack/types';
import { type ButtonState, decodeState } from '../../src/views/actions.js';
import type { SlackMessage } from '../../src/views/message.js';
import {
  decodeWatchOpen,
  WATCH_ACTION,
  type WatchOpenState,
} from '../../src/views/watchButtons.js';
import { SET_WATCH_ACTION, WatchProposalState } from '../../src/views/words.js';
import { buttonsOf, textOf, walk } from '../helpers/blocks.js';

export { walk };

export interface FoundButton {
  label: string;
  actionId: string;
  value: string;
  /** The card state, or the item card's Watch… button's own (the modal's) state. */
  state: ButtonState | WatchOpenState | WatchProposalState;
}

export function buttons(message: SlackMessage): FoundButton[] {
  return buttonsOf(message).map((found) => {
    const value = String(found.value);
    if (found.action_id === WATCH_ACTION.open) {
      const watch = decodeWatchOpen(value);
      if (!watch) throw new Error(`button ${found.text} has an undecodable value`);
      return { label: found.text, actionId: found.action_id, value, state: watch };
    }
    if (found.action_id === SET_WATCH_ACTION) {
      const proposal = WatchProposalState.safeParse(JSON.parse(value));
      if (!proposal.success) throw new Error(`button ${found.text} has an undecodable value`);
      return { label: found.text, actionId: found.action_id, value, state: proposal.data };
    }
    const decoded = decodeState(value);
    if (!decoded.ok) throw new Error(`button ${found.text} has an undecodable value`);
    return { label: found.text, actionId: found.action_id, value, state: decoded.state };
  });
}

export function button(message: SlackMessage, word: string): FoundButton {
  const all = buttons(message);
  const hit = all.find((b) => b.label.includes(word));
  if (!hit) throw new Error(`no "${word}" button among: ${all.map((b) => b.label).join(', ')}`);
  return hit;
}

/** Every string in the blocks that Slack renders (text objects), plus the fallback. */
export function allText(message: SlackMessage): string {
  return textOf(message);
}

/** mrkdwn text objects only (what Slack parses for `<…>` markup). */
export function mrkdwnTexts(message: SlackMessage): string[] {
  const parts: string[] = [];
  walk(message.blocks, (node) => {
    if (node.type === 'mrkdwn' && typeof node.text === 'string') parts.push(node.text);
  });
  return parts;
}

export function blocksOfType<T extends KnownBlock['type']>(
  message: SlackMessage,
  type: T,
): Array<Extract<KnownBlock, { type: T }>> {
  return message.blocks.filter((b): b is Extract<KnownBlock, { type: T }> => b.type === type);
}

/**
 * The only `<` markup views may emit: our date tokens, channel links, and the reveal answer's
 * `mailto:` and `tel:` links (an address or digits, then text with no markup of its own).
 */
const OWN_MARKUP =
  /<(?:!date\^\d+\^\{[a-z_]+\}(?: at \{time\})?(?: \(\{ago\}\))?\|[^<>]*|#[CGD][A-Z0-9]+|mailto:[^\s<>|@]+@[^\s<>|@]+\|[^<>|]+|tel:\+?[0-9]{7,15}\|[^<>|]+)>/g;

/** Markup left after removing our own tokens: must be none. */
export function foreignMarkup(text: string): string[] {
  const rest = text.replace(OWN_MARKUP, '');
  return [...rest.matchAll(/<[^\s]{0,20}/g)].map((m) => m[0]);
}
