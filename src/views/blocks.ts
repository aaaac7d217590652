/**
 * Block Kit within Slack's limits: the limits in one table, the truncation every view uses, a
 * checker that lists what a message would break, and small builders that cannot exceed them:
 * every text they take is cut to the limit of the place it goes. Text given to `md` must already be escaped mrkdwn;
 * `plain` text is never escaped (Slack shows plain_text literally: escaping it would show
 * `&amp;`).
 */
import type {
  ActionsBlock,
  Button,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  KnownBlock,
  MrkdwnElement,
  PlainTextElement,
  SectionBlock,
} from '@slack/types';
import { ButtonState, encodeState } from './actions.js';
import type { SlackMessage } from './message.js';

/**
 * Bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069). In ERP text they would
 * reorder everything after them on the line, our own words and figures included (the sandbox's
 * ODD-UNICODE description turned "639 available" round in the notification). Marks (LRM, RLM)
 * only nudge their neighbours and stay; right-to-left scripts need no controls to show.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

/** mrkdwn with `verbatim`: Slack must not auto-link or auto-mention anything in ERP text. */
export function md(text: string, max: number = LIMITS.textObject): MrkdwnElement {
  return { type: 'mrkdwn', text: nonEmpty(truncate(text, max)), verbatim: true };
}

export function plain(text: string, max: number = LIMITS.textObject): PlainTextElement {
  return {
    type: 'plain_text',
    text: nonEmpty(truncatePlain(stripBidiControls(text), max)),
    emoji: true,
  };
}

/** Slack rejects empty text objects. */
function nonEmpty(text: string): string {
  return text.trim() === '' ? '—' : text;
}

/**
 * The block id of the header of an answer that has no data buttons but is one all the same
 * (the help, the catalogue's categories and suppliers): the console's `--once` reads it to
 * tell such an answer from a notice.
 */
export const REFERENCE_HEADER = 'reference';

/**
 * Block ids that say what kind of answer a message is, where its buttons cannot: a done action
 * (a watch set, listed or removed, even an empty list) and a usage problem. The console's
 * `--once` reads them for its exit code (0 and 2).
 */
export const ANSWER_KIND = { done: 'answer_done', usage: 'answer_usage' } as const;

/** The message with its first block marked as `kind` (a block id of its own is kept). */
export function markedAs<M extends { blocks: KnownBlock[] }>(
  message: M,
  kind: keyof typeof ANSWER_KIND,
): M {
  const [first, ...rest] = message.blocks;
  if (first === undefined || first.block_id !== undefined) return message;
  return { ...message, blocks: [{ ...first, block_id: ANSWER_KIND[kind] }, ...rest] };
}

export function header(text: string, blockId?: string): HeaderBlock {
  return {
    type: 'header',
    text: plain(text.replace(/\s+/g, ' '), LIMITS.headerText),
    ...(blockId === undefined ? {} : { block_id: blockId }),
  };
}

export function section(text: string): SectionBlock {
  return { type: 'section', text: md(text, LIMITS.sectionText) };
}

export function context(...texts: string[]): ContextBlock {
  return {
    type: 'context',
    elements: texts.slice(0, LIMITS.contextElements).map((text) => md(text)),
  };
}

export function divider(): DividerBlock {
  return { type: 'divider' };
}

export function actions(buttons: ReadonlyArray<Button | undefined>): ActionsBlock | undefined {
  const elements = buttons.filter((b): b is Button => b !== undefined);
  if (elements.length === 0) return undefined;
  return { type: 'actions', elements: elements.slice(0, LIMITS.actionsElements) };
}

interface ButtonOptions {
  style?: 'primary' | 'danger';
  /** Read by screen readers instead of the label. */
  accessibilityLabel?: string;
}

/**
 * A button carrying its state. Returns `undefined` when the state cannot be carried (e.g. an
 * ERP code longer than the state schema allows): no button beats a button that fails on click.
 */
export function stateButton(
  label: string,
  actionId: string,
  state: ButtonState,
  options: ButtonOptions = {},
): Button | undefined {
  if (!ButtonState.safeParse(state).success) return undefined;
  let value: string;
  try {
    value = encodeState(state);
  } catch {
    return undefined;
  }
  return {
    type: 'button',
    action_id: actionId,
    text: plain(label, LIMITS.buttonText),
    value,
    ...(options.style ? { style: options.style } : {}),
    ...(options.accessibilityLabel
      ? {
          accessibility_label: truncatePlain(
            stripBidiControls(options.accessibilityLabel),
            LIMITS.buttonText,
          ),
        }
      : {}),
  };
}

/**
 * Lines packed into as few sections as possible (each within 3,000 characters), cut off
 * once `maxChars` of text or `maxSections` sections are used; the last line then says what
 * was left out (`more` gets the lines not shown). `shown` counts the lines that made it.
 */
export function packLines(
  lines: readonly string[],
  options: { maxChars: number; maxSections: number; more: (notShown: readonly string[]) => string },
): { sections: SectionBlock[]; shown: number } {
  const reserve = 100; // room for the "+N more" line
  const perSection = LIMITS.sectionText - reserve;
  const sections: string[][] = [[]];
  let used = 0;
  let sectionLength = 0;
  let shown = 0;
  for (const raw of lines) {
    const line = truncate(raw, perSection);
    if (sectionLength + line.length + 1 > perSection) {
      if (sections.length >= options.maxSections) break;
      sections.push([]);
      sectionLength = 0;
    }
    if (used + line.length + 1 > options.maxChars - reserve && shown > 0) break;
    sections[sections.length - 1]?.push(line);
    sectionLength += line.length + 1;
    used += line.length + 1;
    shown += 1;
  }
  if (shown < lines.length) {
    sections[sections.length - 1]?.push(truncate(options.more(lines.slice(shown)), reserve));
  }
  return {
    sections: sections.filter((s) => s.length > 0).map((s) => section(s.join('\n'))),
    shown,
  };
}

/**
 * Slack's Block Kit limits in one table (as Slack documents them for messages and blocks),
 * the truncation every view uses, and a checker that lists what a message would break. Views
 * stay inside these limits by construction; `checkMessageLimits` is what the tests (and a
 * cautious caller) verify.
 */
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
