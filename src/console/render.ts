/**
 * A Slack message drawn in a terminal: every block type our views use, mrkdwn made readable,
 * and every button numbered (across the whole message, in reading order) so it can be
 * pressed by typing its number.
 */
import {
  type AnyElement,
  Block,
  ButtonElement,
  ImageElement,
  type TableCell,
  TextObject,
} from './blockSchemas.js';
import { type Align, layoutFields, layoutTable, wrapLine } from './layout.js';
import { renderMarkdown, renderMrkdwn, renderPlain } from './mrkdwn.js';
import { renderRichText } from './richText.js';
import { createStyler, type Styler, stripControls, visibleLength } from './style.js';

export interface ConsoleButton {
  /** 1-based, across the whole message. */
  number: number;
  label: string;
  actionId: string;
  value?: string;
  blockId?: string;
}

interface RenderOptions {
  color: boolean;
  /** Terminal columns; 80 by default. */
  width?: number;
  /** Relative dates ("today", "3 minutes ago") are computed against this; now by default. */
  now?: Date;
}

interface RenderedMessage {
  text: string;
  buttons: ConsoleButton[];
}

interface RenderContext {
  styler: Styler;
  width: number;
  now: Date;
  buttons: ConsoleButton[];
}

function textOf(object: TextObject, context: RenderContext): string {
  return object.type === 'mrkdwn'
    ? renderMrkdwn(object.text, context)
    : renderPlain(object.text, object.emoji !== false);
}

function addButton(button: ButtonElement, blockId: string | undefined, context: RenderContext) {
  const number = context.buttons.length + 1;
  const label = renderPlain(button.text.text);
  context.buttons.push({
    number,
    label,
    actionId: button.action_id ?? '',
    ...(button.value === undefined ? {} : { value: button.value }),
    ...(blockId === undefined ? {} : { blockId }),
  });
  const link = button.url ? ` (${stripControls(button.url)})` : '';
  return context.styler.button(`[${number}] ${label}`, button.style) + link;
}

/** Interactive elements: buttons get a number; menus and pickers are shown, not pressable. */
function renderElement(element: AnyElement, blockId: string | undefined, context: RenderContext) {
  const button = ButtonElement.safeParse(element);
  if (button.success) return addButton(button.data, blockId, context);
  const image = ImageElement.safeParse(element);
  if (image.success) return image.data.alt_text ? `[image: ${image.data.alt_text}]` : '';
  const text = context.styler.dim(`[${element.type} not available in the console]`);
  return text;
}

/** Every line cut at words to the terminal's width, as Slack wraps text to the window. */
function wrapped(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, width))
    .join('\n');
}

function renderSection(block: Extract<Block, { type: 'section' }>, context: RenderContext) {
  const lines = block.text ? textOf(block.text, context).split('\n') : [];
  if (block.accessory) {
    // Slack puts the accessory at the top right of the section: here, after its first line.
    const accessory = renderElement(block.accessory, block.block_id, context);
    if (lines.length === 0) lines.push(accessory);
    else lines[0] = `${lines[0]}  ${accessory}`;
  }
  if (lines.length > 0) lines.splice(0, lines.length, wrapped(lines.join('\n'), context.width));
  if (block.fields && block.fields.length > 0) {
    lines.push(
      layoutFields(
        block.fields.map((field) => textOf(field, context)),
        context.width,
      ),
    );
  }
  return lines.join('\n');
}

function renderContextBlock(block: Extract<Block, { type: 'context' }>, context: RenderContext) {
  const parts = block.elements.map((element) => {
    const text = TextObject.safeParse(element);
    if (text.success) return textOf(text.data, context);
    return renderElement(element, block.block_id, context);
  });
  const line = parts.filter((part) => part !== '').join('  ');
  return wrapped(line, context.width)
    .split('\n')
    .map((part) => context.styler.dim(part))
    .join('\n');
}

function cellText(cell: TableCell, context: RenderContext): string {
  const text =
    cell.type === 'raw_text'
      ? stripControls(cell.text)
      : cell.type === 'raw_number'
        ? (cell.text ?? String(cell.value))
        : renderRichText(cell.elements, context);
  return text.replace(/\n/g, ' ');
}

function renderTable(block: Extract<Block, { type: 'table' }>, context: RenderContext) {
  const rows = block.rows.map((row) => row.map((cell) => cellText(cell, context)));
  const aligns: (Align | undefined)[] = (block.column_settings ?? []).map(
    (setting) => setting?.align,
  );
  return layoutTable(rows, aligns);
}

function renderHeader(text: string, styler: Styler) {
  return styler.color
    ? styler.bold(styler.underline(text))
    : `${text}\n${'─'.repeat([...text].length)}`;
}

function renderBlock(block: Block, context: RenderContext): string {
  const { styler } = context;
  switch (block.type) {
    case 'header':
      return renderHeader(renderPlain(block.text.text), styler);
    case 'section':
      return renderSection(block, context);
    case 'context':
      return renderContextBlock(block, context);
    case 'divider':
      return styler.dim('─'.repeat(Math.min(context.width, 60)));
    case 'actions':
      return buttonRows(
        block.elements.map((element) => renderElement(element, block.block_id, context)),
        context.width,
      );
    case 'rich_text':
      return wrapped(renderRichText(block.elements, context), context.width);
    case 'table':
      return renderTable(block, context);
    case 'image': {
      const title = block.title ? `${renderPlain(block.title.text)}: ` : '';
      return `[image: ${title}${stripControls(block.alt_text ?? block.image_url ?? '')}]`;
    }
    case 'markdown':
      return wrapped(renderMarkdown(block.text, context), context.width);
  }
}

/** Buttons side by side, a new row when the next would not fit; a button is never cut. */
function buttonRows(buttons: readonly string[], width: number): string {
  const rows: string[] = [];
  for (const button of buttons) {
    const last = rows.at(-1);
    if (last !== undefined && visibleLength(`${last}  ${button}`) <= width) {
      rows[rows.length - 1] = `${last}  ${button}`;
    } else {
      rows.push(button);
    }
  }
  return rows.join('\n');
}

function describeUnknown(raw: unknown): string {
  const type = (raw as { type?: unknown } | null)?.type;
  return `[${typeof type === 'string' ? stripControls(type) : 'unknown'} block not shown in the console]`;
}

/**
 * Renders a message as terminal text. Without blocks, `text` is shown as mrkdwn (as Slack
 * does); with blocks, `text` is only the notification fallback and is not shown.
 */
export function renderMessage(
  message: { text?: string; blocks?: unknown[] },
  options: RenderOptions,
): RenderedMessage {
  const context: RenderContext = {
    styler: createStyler(options.color),
    width: options.width ?? 80,
    now: options.now ?? new Date(),
    buttons: [],
  };
  const blocks = message.blocks ?? [];
  if (blocks.length === 0) {
    return { text: renderMrkdwn(message.text ?? '', context), buttons: [] };
  }
  const parts = blocks.map((raw) => {
    const parsed = Block.safeParse(raw);
    return parsed.success
      ? renderBlock(parsed.data, context)
      : context.styler.dim(describeUnknown(raw));
  });
  return { text: parts.filter((part) => part !== '').join('\n'), buttons: context.buttons };
}
