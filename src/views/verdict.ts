/**
 * The verdict in words: "Yes: 50 of WIDGET-9 can be promised from Perth (72 available)". One
 * sentence, plain text, shared by the card's first block, its `text` fallback (what a
 * notification shows), a shared message and the workflow step's `summary` output.
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

/** Branches named as able to cover the quantity alone; the card lists every branch below. */
const MAX_COVERING = 3;

const name = (branch: VerdictBranch) => oneLine(branch.name, 40) || 'an unnamed branch';

function where(verdict: StockVerdict): string {
  return verdict.branch === undefined ? 'company-wide' : `at ${name(verdict.branch)}`;
}

function availableClause(verdict: StockVerdict): string {
  if (verdict.available < 0) {
    return `none available ${where(verdict)} (over-allocated by ${formatQty(-verdict.available)})`;
  }
  return `${formatQty(verdict.available)} available ${where(verdict)}`;
}

function onOrderClause(verdict: StockVerdict): string {
  if (verdict.onOrder <= 0) return '';
  // The ERP gives no due date: on-order stock cannot be promised.
  return `; ${formatQty(verdict.onOrder)} on order, not counted (no due date)`;
}

function coveringClause(verdict: StockVerdict): string {
  const wanted = verdict.quantity ?? 1;
  const covering = verdict.coveringBranches;
  if (covering.length === 0) {
    return verdict.quantity === undefined
      ? ' No other branch has any.'
      : ` No single branch has ${formatQty(wanted)} available.`;
  }
  const shown = covering
    .slice(0, MAX_COVERING)
    .map((b) => `${name(b)} (${formatQty(b.available)})`)
    .join(', ');
  const more =
    covering.length > MAX_COVERING ? ` and ${plural(covering.length - MAX_COVERING, 'more')}` : '';
  const lead =
    verdict.quantity === undefined ? 'In stock at' : `Could cover ${formatQty(wanted)} alone:`;
  return ` ${lead} ${shown}${more}.`;
}

/**
 * The verdict as one plain sentence. With a quantity it answers yes or no; without one (a
 * branch asked about) it says what that branch has.
 */
export function verdictSentence(verdict: StockVerdict): string {
  const code = oneLine(verdict.code, 60);
  const figures = `${availableClause(verdict)}${onOrderClause(verdict)}`;
  if (verdict.quantity === undefined) {
    const answer = verdict.canSupply ? 'In stock' : 'None available';
    const tail = verdict.canSupply || verdict.branch === undefined ? '' : coveringClause(verdict);
    return `${answer}: ${code}, ${figures}.${tail}`;
  }
  const asked = `${formatQty(verdict.quantity)} of ${code}`;
  if (verdict.canSupply) {
    const from = verdict.branch === undefined ? '' : ` from ${name(verdict.branch)}`;
    return `Yes: ${asked} can be promised${from} (${figures}).`;
  }
  return `No: ${asked} cannot be promised ${where(verdict)} (${figures}).${coveringClause(verdict)}`;
}

/** The note under the verdict when some branch words named no branch of this item. */
export function unknownBranchNote(
  unknownWords: readonly string[],
  branchNames: readonly string[],
): string {
  const words = unknownWords.map((w) => `“${oneLine(w, 30)}”`).join(', ');
  const names = branchNames.slice(0, 12).map((n) => oneLine(n, 30));
  const more = branchNames.length > 12 ? `, +${branchNames.length - 12} more` : '';
  const known =
    names.length === 0 ? 'it lists no branches' : `its branches are ${names.join(', ')}${more}`;
  return `${words} is not a branch of this item, so the figures are company-wide; ${known}.`;
}

/** The verdict as the card's first block (bold yes/no), and the note when words were unknown. */
export function verdictBlocks(verdict: StockVerdict, branchNames: readonly string[]): KnownBlock[] {
  const sentence = escapeMrkdwn(verdictSentence(verdict));
  const bold = sentence.replace(/^(Yes|No|In stock|None available):/, '*$1:*');
  const icon = verdict.canSupply ? ':white_check_mark:' : ':x:';
  const blocks: KnownBlock[] = [section(`${icon} ${bold}`)];
  if (verdict.unknownWords.length > 0) {
    blocks.push(
      context(
        `:information_source: ${escapeMrkdwn(unknownBranchNote(verdict.unknownWords, branchNames))}`,
      ),
    );
  }
  return blocks;
}
