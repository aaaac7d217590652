/**
 * Slack's Block Kit limits in one table (as Slack documents them for messages and blocks),
 * the truncation every view uses, and a checker that lists what a message would break. Views
 * stay inside these limits by construction; `checkMessageLimits` is what the tests (and a
 * cautious caller) verify.
 */
import type { SlackMessage } from './message.js';

export const LIMITS = {
  /** Blocks per message (modals and Home allow 100; messages 50). */
  blocks: 50,
  /** Section `text`. */
  sectionText: 3000,
  /** Section `fields` items. */
  sectionFields: 10,
  /** Each section field's text. */
  fieldText: 2000,
  /** Header `text` (plain_text only). */
  headerText: 150,
  /** Button label. */
  buttonText: 75,
  /** Button `value`. */
  buttonValue: 2000,
  /** Button `url`. */
  buttonUrl: 3000,
  actionId: 255,
  blockId: 255,
  /** Elements in an actions block. */
  actionsElements: 25,
  /** Elements in a context block. */
  contextElements: 10,
  /**
   * Text across all blocks: past about 12,000 characters Slack answers `msg_blocks_too_long`
   * (undocumented; slackapi/bolt-js#2509, #2867).
   */
  totalText: 12_000,
  /** Any text object (plain_text or mrkdwn), 1 character at least. */
  textObject: 3000,
  /** Top-level `text` fallback: "keep it under 4,000 for best results" (chat.postMessage). */
  fallbackText: 4000,
} as const;

const ELLIPSIS = '…';
const ENTITY = /^&(?:amp|lt|gt);/;

/**
 * Cuts `text` to at most `max` characters (UTF-16 units, the stricter count), ending with
 * `…`. Never splits a surrogate pair, an `&amp;`-style entity or one of our own `<…>` tokens
 * (escaped text has no raw `<`, so any `<` is markup we built, such as a date token).
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return '';
  let cut = max - ELLIPSIS.length;
  if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  const amp = text.lastIndexOf('&', cut - 1);
  if (amp !== -1) {
    const entity = ENTITY.exec(text.slice(amp, amp + 5));
    if (entity && amp + entity[0].length > cut) cut = amp;
  }
  const open = text.lastIndexOf('<', cut - 1);
  if (open !== -1) {
    const close = text.indexOf('>', open);
    if (close === -1 || close >= cut) cut = open;
  }
  return text.slice(0, Math.max(0, cut)) + ELLIPSIS;
}

/**
 * For plain_text: Slack shows it literally, so `<` and `&` are just characters and only
 * surrogate pairs need care (cutting at a `<` as `truncate` does would lose text for nothing).
 */
export function truncatePlain(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return '';
  let cut = max - ELLIPSIS.length;
  if (cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  return text.slice(0, cut) + ELLIPSIS;
}

/**
 * Like `cut` (`truncate` for mrkdwn, `truncatePlain` for plain_text), but ends at a word
 * boundary when there is one in the last 40% of what fits: "…see the data…" rather than
 * "…see the d…". Text without a space near the end (a long code, Japanese) is cut where it
 * must be. Never inside one of our `<…>` tokens (a date token has spaces in it).
 */
export function truncateAtWord(
  text: string,
  max: number,
  cut: (text: string, max: number) => string = truncate,
): string {
  const short = cut(text, max);
  if (short.length === text.length || !short.endsWith(ELLIPSIS)) return short;
  const kept = short.slice(0, -ELLIPSIS.length);
  // `cut` keeps a prefix: when a space follows it, its last word is whole.
  const space = /\s/.test(text.charAt(kept.length)) ? kept.length : lastSpace(kept);
  if (space < kept.length * 0.6) return short;
  const atWord = kept.slice(0, space);
  if (atWord.lastIndexOf('<') > atWord.lastIndexOf('>')) return short;
  const trimmed = trimEndPunctuation(atWord);
  return trimmed === '' ? short : trimmed + ELLIPSIS;
}

/**
 * Without the spaces, commas, colons, full stops and middle dots at the end (not ';': it ends
 * our &amp; entities). A loop: `/[\s,:.·]+$/` is tried from every character of a long run of
 * spaces and scans to its end each time, quadratic in the run.
 */
function trimEndPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && /[\s,:.·]/u.test(text.charAt(end - 1))) end -= 1;
  return text.slice(0, end);
}

function lastSpace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    if (/\s/.test(text.charAt(i))) return i;
  }
  return -1;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const TEXT_OBJECTS = new Set(['plain_text', 'mrkdwn']);
/** Text-bearing elements of rich text and tables: they count towards the total too. */
const OTHER_TEXT = new Set(['text', 'raw_text', 'link']);

/** What a message would break; empty when Slack would accept it. */
export function checkMessageLimits(message: SlackMessage): string[] {
  const problems: string[] = [];
  checkFallback(message.text, problems);
  if (message.blocks.length > LIMITS.blocks) {
    problems.push(`${message.blocks.length} blocks (max ${LIMITS.blocks})`);
  }
  const seen = { actionIds: new Set<string>(), blockIds: new Set<string>(), totalText: 0 };
  message.blocks.forEach((block, index) => {
    const where = `blocks[${index}] (${block.type})`;
    checkBlock(block as unknown as Json, where, problems, seen.blockIds);
    walk(block, where, (node, path) => {
      seen.totalText += checkNode(node, path, problems, seen.actionIds);
    });
  });
  if (seen.totalText > LIMITS.totalText) {
    problems.push(`${seen.totalText} characters of block text (max ${LIMITS.totalText})`);
  }
  return problems;
}

function checkFallback(text: unknown, problems: string[]): void {
  if (typeof text !== 'string' || text.trim() === '') {
    problems.push('text fallback missing');
  } else if (text.length > LIMITS.fallbackText) {
    problems.push(`text fallback of ${text.length} characters (max ${LIMITS.fallbackText})`);
  }
}

function checkBlock(block: Json, where: string, problems: string[], blockIds: Set<string>): void {
  const tooMany = (what: string, count: number, max: number) => {
    if (count > max) problems.push(`${where}: ${count} ${what} (max ${max})`);
  };
  if (typeof block.block_id === 'string') {
    tooMany('characters of block_id', block.block_id.length, LIMITS.blockId);
    if (blockIds.has(block.block_id)) problems.push(`${where}: duplicate block_id`);
    blockIds.add(block.block_id);
  }
  const text = isObject(block.text) && typeof block.text.text === 'string' ? block.text : undefined;
  if (block.type === 'header') {
    if (text?.type !== 'plain_text') problems.push(`${where}: header text must be plain_text`);
    tooMany('characters of header', text?.text ? String(text.text).length : 0, LIMITS.headerText);
  }
  if (block.type === 'section') {
    const fields = Array.isArray(block.fields) ? block.fields : [];
    if (!text && fields.length === 0) problems.push(`${where}: section without text or fields`);
    tooMany('characters of section text', text ? String(text.text).length : 0, LIMITS.sectionText);
    tooMany('fields', fields.length, LIMITS.sectionFields);
    fields.forEach((field: unknown, i) => {
      const length = isObject(field) && typeof field.text === 'string' ? field.text.length : 0;
      tooMany(`characters in fields[${i}]`, length, LIMITS.fieldText);
    });
  }
  const elements = Array.isArray(block.elements) ? block.elements.length : 0;
  if (block.type === 'actions') tooMany('elements', elements, LIMITS.actionsElements);
  if (block.type === 'context') tooMany('elements', elements, LIMITS.contextElements);
}

/** Checks one nested object; returns how many characters of text it carries itself. */
function checkNode(node: Json, where: string, problems: string[], actionIds: Set<string>): number {
  if (typeof node.action_id === 'string') {
    if (node.action_id.length > LIMITS.actionId) problems.push(`${where}: action_id too long`);
    if (actionIds.has(node.action_id)) {
      problems.push(`${where}: duplicate action_id ${node.action_id}`);
    }
    actionIds.add(node.action_id);
  }
  if (node.type === 'button') checkButton(node, where, problems);
  const type = typeof node.type === 'string' ? node.type : '';
  if (typeof node.text !== 'string') return 0;
  if (TEXT_OBJECTS.has(type)) {
    if (node.text.length === 0) problems.push(`${where}: empty text object`);
    if (node.text.length > LIMITS.textObject) {
      problems.push(`${where}: text object of ${node.text.length} characters`);
    }
    return node.text.length;
  }
  return OTHER_TEXT.has(type) ? node.text.length : 0;
}

function checkButton(button: Json, where: string, problems: string[]): void {
  const label = isObject(button.text) ? String(button.text.text ?? '') : '';
  if (label.length > LIMITS.buttonText) problems.push(`${where}: button label too long`);
  if (typeof button.value === 'string' && button.value.length > LIMITS.buttonValue) {
    problems.push(`${where}: button value of ${button.value.length} characters`);
  }
  if (typeof button.url === 'string' && button.url.length > LIMITS.buttonUrl) {
    problems.push(`${where}: button url too long`);
  }
}

function walk(node: unknown, path: string, visit: (node: Json, path: string) => void): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => {
      walk(child, `${path}[${i}]`, visit);
    });
    return;
  }
  if (!isObject(node)) return;
  visit(node, path);
  for (const [key, child] of Object.entries(node)) {
    if (isObject(child) || Array.isArray(child)) walk(child, `${path}.${key}`, visit);
  }
}
