/** Reading view output in the views tests: buttons, text objects, blocks by type. */
import type { KnownBlock } from '@slack/types';
import { type ButtonState, decodeState } from '../../src/views/actions.js';
import type { SlackMessage } from '../../src/views/message.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null;

/** Visits every object in a block tree, depth first. */
export function walk(value: unknown, visit: (node: Json) => void): void {
  if (Array.isArray(value)) {
    for (const child of value) walk(child, visit);
  } else if (isObject(value)) {
    visit(value);
    for (const child of Object.values(value)) walk(child, visit);
  }
}

export interface FoundButton {
  label: string;
  actionId: string;
  value: string;
  state: ButtonState;
}

export function buttons(message: SlackMessage): FoundButton[] {
  const found: FoundButton[] = [];
  walk(message.blocks, (node) => {
    if (node.type !== 'button' || !isObject(node.text)) return;
    const value = String(node.value);
    const decoded = decodeState(value);
    if (!decoded.ok) throw new Error(`button ${String(node.text.text)} has an undecodable value`);
    found.push({
      label: String(node.text.text),
      actionId: String(node.action_id),
      value,
      state: decoded.state,
    });
  });
  return found;
}

export function button(message: SlackMessage, word: string): FoundButton {
  const all = buttons(message);
  const hit = all.find((b) => b.label.includes(word));
  if (!hit) throw new Error(`no "${word}" button among: ${all.map((b) => b.label).join(', ')}`);
  return hit;
}

/** Every string in the blocks that Slack renders (text objects), plus the fallback. */
export function allText(message: SlackMessage): string {
  const parts = [message.text];
  walk(message.blocks, (node) => {
    if (typeof node.text === 'string') parts.push(node.text);
  });
  return parts.join('\n');
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

/** The only `<` markup views may emit: our date tokens and channel links. */
const OWN_MARKUP =
  /<(?:!date\^\d+\^\{[a-z_]+\}(?: at \{time\})?(?: \(\{ago\}\))?\|[^<>]*|#[CGD][A-Z0-9]+)>/g;

/** Markup left after removing our own tokens: must be none. */
export function foreignMarkup(text: string): string[] {
  const rest = text.replace(OWN_MARKUP, '');
  return [...rest.matchAll(/<[^\s]{0,20}/g)].map((m) => m[0]);
}
