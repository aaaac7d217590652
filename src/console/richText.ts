/**
 * `rich_text` blocks (and table cells, which may hold them): sections, bullet and numbered
 * lists, preformatted text and quotes. Rich text is not mrkdwn: its text is literal, so
 * nothing is decoded or parsed here, only styled.
 */
import type { RichTextInline, RichTextPart } from './blockSchemas.js';
import { formatSlackDate, replaceEmoji } from './mrkdwn.js';
import { type Styler, stripControls } from './style.js';

interface RichTextOptions {
  styler: Styler;
  now: Date;
}

function emojiOf(element: RichTextInline): string {
  if (element.unicode) {
    const points = element.unicode.split('-').map((hex) => Number.parseInt(hex, 16));
    if (points.every((point) => Number.isInteger(point) && point > 0 && point <= 0x10ffff)) {
      return String.fromCodePoint(...points);
    }
  }
  return replaceEmoji(`:${element.name ?? ''}:`);
}

function inlineText(element: RichTextInline, options: RichTextOptions): string {
  switch (element.type) {
    case 'text':
      return element.text ?? '';
    case 'link':
      return element.text && element.text !== element.url
        ? `${element.text} (${element.url ?? ''})`
        : (element.url ?? '');
    case 'user':
      return `@${element.user_id ?? ''}`;
    case 'usergroup':
      return `@${element.usergroup_id ?? ''}`;
    case 'channel':
      return `#${element.channel_id ?? ''}`;
    case 'team':
      return `+${element.team_id ?? ''}`;
    case 'broadcast':
      return `@${element.range ?? 'here'}`;
    case 'emoji':
      return emojiOf(element);
    case 'color':
      return element.value ?? '';
    case 'date':
      return element.timestamp === undefined
        ? (element.fallback ?? '')
        : formatSlackDate(element.timestamp, element.format ?? '{date_short}', options.now);
    default:
      return element.text ?? element.fallback ?? '';
  }
}

function styled(element: RichTextInline, text: string, styler: Styler): string {
  let result = text;
  const style = element.style;
  if (style?.code) result = styler.code(result);
  if (style?.bold) result = styler.bold(result);
  if (style?.italic) result = styler.italic(result);
  if (style?.strike) result = styler.strike(result);
  if (style?.underline) result = styler.underline(result);
  return result;
}

/** Styles apply line by line so that a style never bleeds into the next line's prefix. */
function renderInline(elements: readonly RichTextInline[], options: RichTextOptions): string {
  return elements
    .map((element) =>
      stripControls(inlineText(element, options))
        .split('\n')
        .map((line) => styled(element, line, options.styler))
        .join('\n'),
    )
    .join('');
}

const BULLETS = ['•', '◦', '▪'];

function renderPart(part: RichTextPart, options: RichTextOptions): string {
  const { styler } = options;
  switch (part.type) {
    case 'rich_text_section':
      return renderInline(part.elements, options).replace(/\n$/, '');
    case 'rich_text_list': {
      const indent = part.indent ?? 0;
      const pad = '  '.repeat(indent + 1);
      return part.elements
        .map((item, index) => {
          const marker =
            part.style === 'ordered'
              ? `${(part.offset ?? 0) + index + 1}.`
              : (BULLETS[indent % BULLETS.length] ?? '•');
          const [first = '', ...rest] = renderInline(item.elements, options).split('\n');
          const hang = ' '.repeat(marker.length + 1);
          return [`${pad}${marker} ${first}`, ...rest.map((line) => `${pad}${hang}${line}`)].join(
            '\n',
          );
        })
        .join('\n');
    }
    case 'rich_text_preformatted':
      // Same prefix on every line: columns inside stay aligned.
      return renderInline(part.elements, { ...options, styler })
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => `  ${styler.code(line)}`)
        .join('\n');
    case 'rich_text_quote': {
      const bar = styler.color ? styler.dim('│ ') : '> ';
      return renderInline(part.elements, options)
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => bar + line)
        .join('\n');
    }
  }
}

export function renderRichText(parts: readonly RichTextPart[], options: RichTextOptions): string {
  return parts.map((part) => renderPart(part, options)).join('\n');
}
