/**
 * What every message of the sandbox sweep must satisfy: it fits Block Kit, carries no markup
 * of the ERP's and no bidi controls, leaks no contact details outside a reveal answer, and
 * carries only decodable buttons with distinct action ids.
 */
import type { Contact } from '../../../src/erp/schemas.js';
import { decodeState, MAX_VALUE_LENGTH } from '../../../src/views/actions.js';
import { checkMessageLimits } from '../../../src/views/blocks.js';
import { escapeMrkdwn } from '../../../src/views/format.js';
import type { SlackMessage } from '../../../src/views/message.js';
import { decodeWatchOpen, WATCH_ACTION } from '../../../src/views/watchButtons.js';
import { foreignMarkup, mrkdwnTexts, walk } from '../inspect.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** Every string anywhere in the message (text, labels, values, ids, the fallback). */
function allStrings(message: SlackMessage): string[] {
  const strings = [message.text];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (isObject(value)) Object.values(value).forEach(collect);
  };
  collect(message.blocks);
  return strings;
}

/** What Slack shows or reads out: text objects, accessibility labels and the fallback. */
function shownTexts(message: SlackMessage): string[] {
  const texts = [message.text];
  walk(message.blocks, (node) => {
    const isText = node.type === 'plain_text' || node.type === 'mrkdwn';
    if (isText && typeof node.text === 'string') texts.push(node.text);
    if (typeof node.accessibility_label === 'string') texts.push(node.accessibility_label);
  });
  return texts;
}

/**
 * Bidi embeddings, overrides and isolates in ERP text would reorder the rest of the line,
 * our own figures included ("…override: 639 available" shown backwards in a notification).
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

export interface Rendered {
  name: string;
  message: SlackMessage;
  /** Contact details that must not appear (in the blocks unless `reveal`, never in `text`). */
  secrets?: readonly string[];
  reveal?: boolean;
}

/** What is wrong with one message; empty when it is fine. */
export function problemsOf({ name, message, secrets = [], reveal = false }: Rendered): string[] {
  const problems = checkMessageLimits(message).map((p) => `${name}: ${p}`);
  for (const text of [message.text, ...mrkdwnTexts(message)]) {
    const markup = foreignMarkup(text);
    if (markup.length > 0)
      problems.push(`${name}: markup ${markup.join(' ')} in ${text.slice(0, 80)}`);
  }
  if (shownTexts(message).some((text) => BIDI_CONTROL.test(text))) {
    problems.push(`${name}: a bidi control character in the text`);
  }
  const searched = reveal ? [message.text] : allStrings(message);
  for (const secret of secrets) {
    if (searched.some((s) => s.includes(secret))) {
      problems.push(`${name}: contact detail ${secret} ${reveal ? 'in the fallback' : 'shown'}`);
    }
  }
  const actionIds = new Set<string>();
  walk(message.blocks, (node) => {
    if (typeof node.action_id === 'string') {
      if (actionIds.has(node.action_id))
        problems.push(`${name}: action_id ${node.action_id} twice`);
      actionIds.add(node.action_id);
    }
    if (node.type !== 'button') return;
    const value = node.value;
    // The item card's Watch… button carries the modal's state, not a card state.
    const decodes =
      node.action_id === WATCH_ACTION.open
        ? decodeWatchOpen(value) !== undefined
        : typeof value === 'string' && decodeState(value).ok;
    if (typeof value !== 'string' || value.length > MAX_VALUE_LENGTH || !decodes) {
      problems.push(
        `${name}: button ${String(node.action_id)} value ${String(value).slice(0, 80)}`,
      );
    }
  });
  return problems;
}

/** Renders lazily and checks each message as it comes, so memory stays flat. */
export function sweep(messages: Iterable<Rendered>): { checked: number; problems: string[] } {
  let checked = 0;
  const problems: string[] = [];
  for (const rendered of messages) {
    checked += 1;
    problems.push(...problemsOf(rendered));
  }
  return { checked, problems };
}

/** A contact's details as a leak scan would find them: whole values, raw or escaped. */
export function secretsOf(contact: {
  telephone: string;
  email: string;
  addressbook?: Contact['addressbook'];
}): string[] {
  const values = [
    contact.telephone,
    contact.email,
    ...(contact.addressbook ?? []).flatMap((p) => [p.telephone, p.mobile, p.email, p.email2]),
  ].filter((value) => value.length >= 8);
  return [...new Set(values.flatMap((value) => [value, escapeMrkdwn(value)]))];
}
