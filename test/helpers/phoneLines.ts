/**
 * THE phone layout rule of the tests: a message's lines as Slack's phone app lays them out,
 * counted as the product's "On a phone" rule counts them. About 40 characters a line; section
 * fields as two columns of about 19; a header wrapping at about 26; an actions block one line
 * per row of up to three buttons (a select takes a row of its own); each block starts a new
 * line. Text is measured as it is read, not as it is written: mrkdwn marks, link targets and
 * escapes take no room, an emoji takes two characters, a date token takes its rendered width.
 */
import { isObject, type Json } from './blocks.js';

export const PHONE = {
  line: 40,
  field: 19,
  header: 26,
  buttonsPerRow: 3,
  /** A cell of a table block: a phone shows about three columns of this width. */
  cell: 13,
} as const;

/** How Slack renders a date token's format words (their longest usual form). */
const DATE_WORDS: Record<string, string> = {
  date_num: '2026-11-27',
  date_slash: '27/11/2026',
  date_long: 'Friday, November 27th, 2026',
  date_long_full: 'November 27th, 2026',
  date_long_pretty: 'Yesterday, November 27th',
  date: 'November 27th, 2026',
  date_pretty: 'November 27th, 2026',
  date_short: 'Nov 27, 2026',
  date_short_pretty: 'Nov 27, 2026',
  time: '10:42 AM',
  time_secs: '10:42:07 AM',
  ago: '3 minutes ago',
};

/** The text a reader sees in a mrkdwn string (one paragraph or several, `\n` kept). */
export function visibleMrkdwn(text: string): string {
  return (
    text
      // Date tokens: `<!date^1700000000^{date_short_pretty} at {time}|fallback>`.
      .replace(/<!date\^\d+\^([^|>]*)(?:\^[^|>]*)?(?:\|[^>]*)?>/g, (_m, format: string) =>
        format.replace(/\{(\w+)\}/g, (_w, word: string) => DATE_WORDS[word] ?? word),
      )
      .replace(/<@[A-Z0-9]+(?:\|([^>]*))?>/g, (_m, name?: string) => `@${name ?? 'someone'}`)
      .replace(/<#[A-Z0-9]+(?:\|([^>]*))?>/g, (_m, name?: string) => `#${name ?? 'channel'}`)
      .replace(/<!(\w+)(?:\|([^>]*))?>/g, (_m, word: string, label?: string) => `@${label ?? word}`)
      .replace(/<([^|>]+)\|([^>]*)>/g, '$2')
      .replace(/<([^>]+)>/g, '$1')
      .replace(/```/g, '')
      .replace(/`/g, '')
      .replace(/(^|[\s(])[*_~]+|[*_~]+(?=$|[\s).,:;!?])/gm, '$1')
      .replace(/:[a-z0-9_+-]+:/g, '██')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
  );
}

/** Greedy word wrap: the lines a paragraph takes at `width` characters. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      let rest = [...word];
      while (rest.length > 0) {
        const room = line === '' ? width : width - [...line].length - 1;
        if (rest.length <= room) {
          line = line === '' ? rest.join('') : `${line} ${rest.join('')}`;
          rest = [];
        } else if (line !== '') {
          lines.push(line);
          line = '';
        } else {
          lines.push(rest.slice(0, width).join(''));
          rest = rest.slice(width);
        }
      }
    }
    lines.push(line);
  }
  return lines;
}

function textOfObject(node: unknown): string {
  if (!isObject(node) || typeof node.text !== 'string') return '';
  return node.type === 'mrkdwn' ? visibleMrkdwn(node.text) : node.text;
}

/** A rich text element's visible text (sections, quotes, lists, preformatted). */
function richText(element: Json): string[] {
  const inline = (elements: unknown): string =>
    (Array.isArray(elements) ? elements : [])
      .filter(isObject)
      .map((e) => {
        if (e.type === 'text') return String(e.text ?? '');
        if (e.type === 'link') return String(e.text ?? e.url ?? '');
        if (e.type === 'emoji') return '██';
        if (e.type === 'user') return '@someone';
        if (e.type === 'channel') return '#channel';
        if (e.type === 'date') return 'Nov 27, 2026 at 10:42 AM';
        return '';
      })
      .join('');
  if (element.type === 'rich_text_list') {
    const items = Array.isArray(element.elements) ? element.elements.filter(isObject) : [];
    return items.flatMap((item) => wrap(`• ${inline(item.elements)}`, PHONE.line));
  }
  return wrap(inline(element.elements), PHONE.line);
}

/** The lines one block takes on a phone, as text (so tests can ask what is on line 1). */
export function blockLines(block: Json): string[] {
  switch (block.type) {
    case 'header':
      return wrap(textOfObject(block.text), PHONE.header);
    case 'divider':
      return ['──'];
    case 'context': {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      const text = elements.map((e) =>
        isObject(e) && e.type === 'image' ? '██' : textOfObject(e),
      );
      return wrap(text.join(' '), PHONE.line);
    }
    case 'section': {
      const lines = block.text === undefined ? [] : wrap(textOfObject(block.text), PHONE.line);
      const fields = Array.isArray(block.fields) ? block.fields : [];
      for (let i = 0; i < fields.length; i += 2) {
        const left = wrap(textOfObject(fields[i]), PHONE.field);
        const right = i + 1 < fields.length ? wrap(textOfObject(fields[i + 1]), PHONE.field) : [];
        const rows = Math.max(left.length, right.length);
        for (let r = 0; r < rows; r += 1) {
          lines.push(`${(left[r] ?? '').padEnd(PHONE.field)} ${right[r] ?? ''}`.trimEnd());
        }
      }
      if (isObject(block.accessory) && lines.length === 0) lines.push('[accessory]');
      return lines;
    }
    case 'actions': {
      const elements = (Array.isArray(block.elements) ? block.elements : []).filter(isObject);
      const buttons = elements.filter((e) => e.type === 'button');
      const lines: string[] = [];
      for (let i = 0; i < buttons.length; i += PHONE.buttonsPerRow) {
        const row = buttons.slice(i, i + PHONE.buttonsPerRow);
        lines.push(row.map((b) => `[${textOfObject(b.text)}]`).join(' '));
      }
      for (const other of elements.filter((e) => e.type !== 'button')) {
        lines.push(`[${String(other.type)}]`);
      }
      return lines;
    }
    case 'rich_text':
      return (Array.isArray(block.elements) ? block.elements : [])
        .filter(isObject)
        .flatMap(richText);
    case 'table': {
      const rows = Array.isArray(block.rows) ? block.rows : [];
      return rows.flatMap((row) => {
        const cells = (Array.isArray(row) ? row : []).filter(isObject).map((cell) => {
          if (cell.type === 'raw_text') return String(cell.text ?? '');
          return richText(cell).join(' ');
        });
        const tall = Math.max(1, ...cells.map((c) => wrap(c, PHONE.cell).length));
        return Array.from({ length: tall }, (_, i) =>
          cells.map((c) => (wrap(c, PHONE.cell)[i] ?? '').padEnd(PHONE.cell)).join(' '),
        );
      });
    }
    case 'image':
      return ['[image]', '', '', '', ''];
    case 'input':
      return ['[label]', '[input]'];
    default:
      return [`[${String(block.type)}]`];
  }
}

/** Every line of the message on a phone, block after block. */
export function phoneLines(message: { blocks?: unknown }): string[] {
  const blocks = Array.isArray(message.blocks) ? message.blocks.filter(isObject) : [];
  return blocks.flatMap((block) => blockLines(block));
}

export interface PhoneFit {
  lines: string[];
  count: number;
  /** The first two lines, joined: where the answer must be. */
  top: string;
}

export function phoneFit(message: { blocks?: unknown }): PhoneFit {
  const lines = phoneLines(message);
  return { lines, count: lines.length, top: lines.slice(0, 2).join('\n') };
}

/** The most lines a main answer may take: one phone screen. */
export const PHONE_SCREEN = 20;
