/**
 * Small Block Kit builders that cannot exceed Slack's limits: every text they take is cut to
 * the limit of the place it goes. Text given to `md` must already be escaped mrkdwn;
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
import { LIMITS, truncate, truncatePlain } from './limits.js';
import { stripBidiControls } from './mrkdwn.js';

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
