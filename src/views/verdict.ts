/**
 * The verdict in words, made for a phone: one line of about 80 characters ("❌ No: Perth has
 * 0 free (2 over-allocated), 10 on order with no date"), and on the next the branches that
 * could cover it ("Sydney could: 37 free"). The plain sentence (`verdictSentence`) adds what
 * was asked, for the `text` fallback (what a notification shows), a shared message and the
 * workflow step's `summary` output.
 */
import type { KnownBlock } from '@slack/types';
import type { StockVerdict, VerdictBranch } from '../rules/verdict.js';
import { context, section } from './blocks.js';
import { formatQty, plural } from './format.js';
import { truncatePlain } from './limits.js';
import { escapeMrkdwn } from './mrkdwn.js';

/** ERP text on one line, plain (the sentence is escaped once, where it becomes mrkdwn). */
const oneLine = (text: string, max: number): string =>
  truncatePlain(text.replace(/\s+/g, ' ').trim(), max);

/** A branch name in a verdict line: short enough that the line stays about 80 characters. */
const name = (branch: VerdictBranch) => oneLine(branch.name, 24) || 'an unnamed branch';

/** How long the "could cover it" line may grow before the rest become "+N more". */
const COVER_LINE = 80;

/** "Perth has 0 free (2 over-allocated)", "42 free company-wide". */
function freeClause(verdict: StockVerdict): string {
  const free = formatQty(verdict.promisable);
  const over = verdict.available < 0 ? ` (${formatQty(-verdict.available)} over-allocated)` : '';
  return verdict.branch === undefined
    ? `${free} free company-wide${over}`
    : `${name(verdict.branch)} has ${free} free${over}`;
}

/** On-order stock is never promised: the ERP gives no due date for it. */
function onOrderClause(verdict: StockVerdict): string {
  return verdict.onOrder > 0 ? `, ${formatQty(verdict.onOrder)} on order with no date` : '';
}

/** The answer word: yes or no with a quantity; in stock or none for a branch alone. */
function answerWord(verdict: StockVerdict): string {
  if (verdict.quantity !== undefined) return verdict.canSupply ? 'Yes' : 'No';
  return verdict.canSupply ? 'In stock' : 'None free';
}

/** The verdict in one line: "No: Perth has 0 free (2 over-allocated), 10 on order with no date". */
export function verdictLine(verdict: StockVerdict): string {
  return `${answerWord(verdict)}: ${freeClause(verdict)}${onOrderClause(verdict)}`;
}

/**
 * The line under a "no" (or a branch with none): who could cover it alone, best first, as
 * many as fit in about 80 characters. Empty when there is nothing to add.
 */
export function coverLine(verdict: StockVerdict): string {
  if (verdict.canSupply) return '';
  if (verdict.branch === undefined && verdict.quantity === undefined) return '';
  const covering = verdict.coveringBranches;
  if (covering.length === 0) {
    if (verdict.quantity === undefined) return 'No other branch has any free.';
    return `No single branch has ${formatQty(verdict.quantity)} free.`;
  }
  const [first, ...others] = covering;
  if (first === undefined) return '';
  let line = `${name(first)} could: ${formatQty(first.available)} free`;
  let shown = 1;
  for (const other of others) {
    const next = ` · ${name(other)}: ${formatQty(other.available)}`;
    if ((line + next).length > COVER_LINE - 10) break;
    line += next;
    shown += 1;
  }
  const more = covering.length - shown;
  return more > 0 ? `${line} · ${plural(more, 'more')}` : line;
}

/** What was asked, for the plain sentence: "50 of WIDGET-9 at Perth". */
function asked(verdict: StockVerdict): string {
  const code = oneLine(verdict.code, 60);
  const where = verdict.branch === undefined ? '' : ` at ${name(verdict.branch)}`;
  return verdict.quantity === undefined
    ? `${code}${where}`
    : `${formatQty(verdict.quantity)} of ${code}${where}`;
}

/**
 * The verdict as one plain sentence, answer first: "No, 50 of WIDGET-9 at Perth: Perth has 0
 * free (2 over-allocated), 10 on order with no date. Sydney could: 37 free."
 */
export function verdictSentence(verdict: StockVerdict): string {
  const cover = coverLine(verdict);
  const figures = `${freeClause(verdict)}${onOrderClause(verdict)}.`;
  return `${answerWord(verdict)}, ${asked(verdict)}: ${figures}${cover ? ` ${cover}` : ''}`;
}

/** The verdict as the card's first lines: the answer (bold yes/no), then who could cover it. */
export function verdictBlocks(verdict: StockVerdict): KnownBlock[] {
  const icon = verdict.canSupply ? ':white_check_mark:' : ':x:';
  const line = escapeMrkdwn(verdictLine(verdict)).replace(/^([^:]+):/, '*$1:*');
  const cover = coverLine(verdict);
  return cover
    ? [section(`${icon} ${line}`), context(escapeMrkdwn(cover))]
    : [section(`${icon} ${line}`)];
}

/**
 * Branch words that named nothing, beside an answer that named a branch anyway (`Perth WA`):
 * said, never turned into a company-wide answer.
 */
export function ignoredWordsNote(words: readonly string[]): string {
  const quoted = words.slice(0, 5).map((w) => `“${oneLine(w, 30)}”`);
  return `Not read as a branch: ${quoted.join(', ')}.`;
}

/** The note when branch words named no branch of this item (a card with no quantity). */
export function unknownBranchNote(
  unknownWords: readonly string[],
  branchNames: readonly string[],
): string {
  const words = unknownWords
    .slice(0, 5)
    .map((w) => `“${oneLine(w, 30)}”`)
    .join(', ');
  const names = branchNames.slice(0, 6).map((n) => oneLine(n, 20));
  const more = branchNames.length > 6 ? ` +${branchNames.length - 6}` : '';
  const known = names.length === 0 ? 'it lists no branches' : `${names.join(', ')}${more}`;
  return `${words}: not a branch here (${known}).`;
}
