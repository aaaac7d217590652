/** Column layout for the terminal: section fields two per row, and table blocks. */
import { padVisible, visibleLength } from './style.js';

/** Greedy word wrap by visible width; words longer than the width stay whole. */
export function wrapLine(line: string, width: number): string[] {
  if (visibleLength(line) <= width) return [line];
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (current !== '' && visibleLength(candidate) > width) {
      lines.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  lines.push(current);
  return lines;
}

/**
 * Slack shows section fields in two equal columns. Here too: the right column starts half way
 * across the terminal, so it lines up across rows and across sections (a long list of
 * branches is split over several sections, ten fields each).
 */
export function layoutFields(fields: readonly string[], width: number): string {
  const gap = 3;
  const column = Math.max(10, Math.floor((width - gap) / 2));
  const rows: string[] = [];
  for (let index = 0; index < fields.length; index += 2) {
    const left = (fields[index] ?? '').split('\n').flatMap((line) => wrapLine(line, column));
    const rightWidth = Math.max(10, width - column - gap);
    const right =
      fields[index + 1]?.split('\n').flatMap((line) => wrapLine(line, rightWidth)) ?? [];
    const height = Math.max(left.length, right.length);
    for (let line = 0; line < height; line += 1) {
      const rightText = right[line] ?? '';
      const leftText = left[line] ?? '';
      rows.push(rightText === '' ? leftText : padVisible(leftText, column + gap) + rightText);
    }
  }
  return rows.join('\n');
}

export type Align = 'left' | 'center' | 'right';

function alignCell(text: string, width: number, align: Align): string {
  const missing = Math.max(0, width - visibleLength(text));
  if (align === 'right') return ' '.repeat(missing) + text;
  if (align === 'center') {
    const before = Math.floor(missing / 2);
    return ' '.repeat(before) + text + ' '.repeat(missing - before);
  }
  return text + ' '.repeat(missing);
}

/** Rows of single-line cells, aligned per column, with a rule under the first (header) row. */
export function layoutTable(
  rows: readonly (readonly string[])[],
  aligns: readonly (Align | undefined)[],
): string {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(0, ...rows.map((row) => visibleLength(row[column] ?? ''))),
  );
  const lines = rows.map((row) =>
    widths
      .map((width, column) => alignCell(row[column] ?? '', width, aligns[column] ?? 'left'))
      .join('  ')
      .trimEnd(),
  );
  if (lines.length > 1) {
    const rule = widths.map((width) => '─'.repeat(width)).join('  ');
    lines.splice(1, 0, rule);
  }
  return lines.join('\n');
}
