/**
 * The build check in words (src/rules/build.ts works it out): "Yes, enough for 12" or "No:
 * short SEAL-12 (need 20, 4 free at Perth; 40 at Sydney)", one line per short component; while
 * components are still being fetched, "checked 40 of 86" and what is short so far.
 */
import type { KnownBlock } from '@slack/types';
import type { BuildCheck, ShortComponent } from '../rules/build.js';
import { context, LIMITS, markedAs, section, truncatePlain } from './blocks.js';
import { escapeMrkdwn, escapeTruncated, formatQty, plural } from './format.js';
import type { SlackMessage } from './message.js';

/** Short components listed one a line; the rest are counted (one phone screen). */
const SHORT_LINES = 8;

const plainName = (text: string, max: number) =>
  truncatePlain(text.replace(/\s+/g, ' ').trim(), max) || '—';

/** "SEAL-12 (need 20, 4 free at Perth; 40 at Sydney)". */
export function shortLine(short: ShortComponent, branchName: string | undefined): string {
  const where = branchName === undefined ? '' : ` at ${plainName(branchName, 20)}`;
  const held = short.heldAt.map((h) => `${formatQty(h.free)} at ${plainName(h.name, 16)}`);
  const elsewhere = held.length > 0 ? `; ${held.join(', ')}` : '';
  return `${plainName(short.code, 40)} (need ${formatQty(short.need)}, ${formatQty(short.free)} free${where}${elsewhere})`;
}

/** The first line: the answer, or how far the check has come. */
export function buildLine(check: BuildCheck): string {
  const asked = `${formatQty(check.quantity)} of ${plainName(check.code, 40)}`;
  const where = check.branchName === undefined ? '' : ` at ${plainName(check.branchName, 20)}`;
  if (check.total === 0)
    return `${plainName(check.code, 40)} has no bill of materials to build from.`;
  if (check.short.length > 0 || check.missing.length > 0) {
    const first = check.short[0];
    const lead =
      first === undefined
        ? `No: ${asked}${where}`
        : `No: short ${shortLine(first, check.branchName)}`;
    return check.complete
      ? lead
      : `${lead} (checked ${formatQty(check.checked)} of ${formatQty(check.total)})`;
  }
  if (!check.complete) {
    return `Checking ${asked}${where}: checked ${formatQty(check.checked)} of ${formatQty(check.total)} components`;
  }
  const enough = check.enoughFor === undefined ? '' : `, enough for ${formatQty(check.enoughFor)}`;
  return `Yes${enough}: ${asked}${where} from its ${plural(check.total, 'component')}`;
}

function icon(check: BuildCheck): string {
  if (check.total === 0) return ':information_source:';
  if (check.short.length > 0 || check.missing.length > 0) return ':x:';
  return check.complete ? ':white_check_mark:' : ':hourglass_flowing_sand:';
}

/** The other short components, the missing ones, and what is still being checked. */
function detailLines(check: BuildCheck): string[] {
  const rest = check.short.slice(1);
  const lines = rest
    .slice(0, SHORT_LINES - 1)
    .map((s) => `Short ${shortLine(s, check.branchName)}`);
  if (rest.length > SHORT_LINES - 1)
    lines.push(`+${formatQty(rest.length - SHORT_LINES + 1)} more short`);
  if (check.missing.length > 0) {
    const codes = check.missing.slice(0, 5).map((c) => plainName(c, 30));
    const more = check.missing.length > 5 ? ` +${check.missing.length - 5}` : '';
    lines.push(`Not in the ERP: ${codes.join(', ')}${more}`);
  }
  return lines;
}

function progressNote(check: BuildCheck): string | undefined {
  if (check.complete || check.total === 0) return undefined;
  return `Checked ${formatQty(check.checked)} of ${formatQty(check.total)} components; this message updates as the rest arrive (each is one ERP lookup, within the budget).`;
}

export function buildCheckMessage(check: BuildCheck): SlackMessage {
  const line = buildLine(check);
  const details = detailLines(check);
  const note = progressNote(check);
  const blocks: KnownBlock[] = [
    section(`${icon(check)} ${escapeMrkdwn(line).replace(/^([^:(]+):/, '*$1:*')}`),
    ...(details.length > 0 ? [section(details.map(escapeMrkdwn).join('\n'))] : []),
    ...(note === undefined ? [] : [context(escapeMrkdwn(note))]),
  ];
  const text = [line, ...details].join('. ');
  // An answer, Yes or No, even while components are still being checked.
  return markedAs({ text: escapeTruncated(text, LIMITS.fallbackText / 4), blocks }, 'done');
}
