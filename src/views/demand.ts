/**
 * `/stock demand`: the No answers of the last seven days, by item and branch, most asked first.
 * Counts only: the store never knew who asked or where.
 */
import { context, LIMITS, markedAs, section, truncatePlain } from './blocks.js';
import { codeSpan, escapeMrkdwn, escapeTruncated, formatQty, plural } from './format.js';
import type { SlackMessage } from './message.js';

/** One item at one branch (or company-wide) and how many times the answer was No. */
export interface DemandRow {
  code: string;
  branchName: string | undefined;
  count: number;
}

/** Rows shown: one phone screen. */
export const DEMAND_ROWS = 15;
export const DEMAND_DAYS_SHOWN = 7;

const where = (row: DemandRow) =>
  row.branchName === undefined
    ? 'company-wide'
    : `at ${escapeMrkdwn(truncatePlain(row.branchName.replace(/\s+/g, ' ').trim(), 24))}`;

/** "`WIDGET-9` at Sydney · 2 “No”s": one row, as the report and the digest show it. */
export const demandLine = (row: DemandRow): string =>
  `${codeSpan(row.code, 30)} ${where(row)} · ${plural(row.count, '“No”', '“No”s')}`;

export function demandMessage(rows: readonly DemandRow[]): SlackMessage {
  if (rows.length === 0) {
    const text = `Unmet demand, last ${DEMAND_DAYS_SHOWN} days: no “No” answers.`;
    return markedAs({ text, blocks: [section(text)] }, 'done');
  }
  const lines = rows.slice(0, DEMAND_ROWS).map(demandLine);
  const head = `*Unmet demand, last ${DEMAND_DAYS_SHOWN} days* (most asked first)`;
  const plain = rows
    .slice(0, 5)
    .map((row) => `${row.code} ${row.branchName ?? 'company-wide'} ${formatQty(row.count)}`)
    .join('; ');
  return markedAs(
    {
      text: escapeTruncated(
        `Unmet demand, last ${DEMAND_DAYS_SHOWN} days: ${plain}`,
        LIMITS.fallbackText / 4,
      ),
      blocks: [
        section(head),
        section(lines.join('\n')),
        context('Counts of the “No” answers the app gave; never who asked or where.'),
      ],
    },
    'done',
  );
}

export const demandOffText =
  'Unmet demand is counted where watches live, and watches are off on this app.';
