/**
 * The Workflow Builder step "Look up stock" in words: its outputs (the summary is the same
 * verdict sentence `/stock CODE N branch` shows) and the plain sentence each failure hands
 * `functions.completeError`. Workflow Builder shows that sentence as text, so nothing here is
 * mrkdwn, and nothing from an error itself (messages, URLs, tokens) is echoed.
 */
import type { StockVerdict } from '../rules/stock.js';
import { truncatePlain } from './blocks.js';
import { errorToUserMessage, passingFailure } from './feedback.js';
import { verdictWithPlanSentence } from './planParts.js';

/** What the manifest's `output_parameters` declare; the keys must match them exactly. */
export interface LookupStockOutputs {
  available: number;
  on_order: number;
  can_supply: boolean;
  /** Stock on hand at other branches fills it: one branch, or a split over at most three. */
  split_possible: boolean;
  description: string;
  summary: string;
}

/** Inputs refused before any lookup: each names the input as Workflow Builder titles it. */
export type StepInputProblem =
  | 'item_code_missing'
  | 'item_code_invalid'
  | 'quantity_invalid'
  | 'branch_invalid';

const INPUT_PROBLEMS: Record<StepInputProblem, string> = {
  item_code_missing: 'The step needs an item code: fill in "Item code" (for example WIDGET-9).',
  item_code_invalid:
    'The "Item code" input is not one item code: use a single code such as WIDGET-9.',
  quantity_invalid: 'The "Quantity" input must be a whole number, 0 or more.',
  branch_invalid: 'The "Branch" input is too long to be a branch name: use a name such as Perth.',
};

/**
 * A workflow's later steps may post an output in a channel, where Slack reads `<!channel>`,
 * `<@U…>` or `<https://…|label>` as markup, while Workflow Builder shows an error as plain
 * text, where an escape would show as `&lt;`. So the brackets of ERP and form text become
 * look-alikes that are markup nowhere.
 */
const unmarked = (text: string): string => text.replaceAll('<', '‹').replaceAll('>', '›');

/** User text on one line, cut short: it may come from a form someone filled in. */
const quoted = (text: string, max: number): string =>
  `“${truncatePlain(text.replace(/\s+/g, ' ').trim(), max)}”`;

/** How many branch names a failure lists before "+N more". */
const MAX_BRANCH_NAMES = 12;

export function stepOutputs(verdict: StockVerdict, splitPossible: boolean): LookupStockOutputs {
  return {
    // Over-allocation is not stock anyone can have: a workflow sees 0, as a promise would.
    available: verdict.promisable,
    on_order: Math.max(verdict.onOrder, 0),
    can_supply: verdict.canSupply,
    split_possible: splitPossible,
    description: unmarked(truncatePlain(verdict.description.replace(/\s+/g, ' ').trim(), 500)),
    // The card's sentence, with the plan after a No ("Options: Split: 37 Sydney + 3 Brisbane").
    summary: unmarked(verdictWithPlanSentence(verdict)),
  };
}

export function stepInputProblemText(problem: StepInputProblem): string {
  return INPUT_PROBLEMS[problem];
}

export function stepUnknownItemText(code: string): string {
  return unmarked(
    `No item has the code ${quoted(code, 60)} in the ERP; check the code the workflow passes.`,
  );
}

export function stepUnknownBranchText(
  code: string,
  branch: string,
  branchNames: readonly string[],
): string {
  const names = branchNames.slice(0, MAX_BRANCH_NAMES).map((n) => truncatePlain(n, 30));
  const more =
    branchNames.length > MAX_BRANCH_NAMES ? `, +${branchNames.length - MAX_BRANCH_NAMES} more` : '';
  const known =
    names.length === 0 ? 'it lists no branches' : `its branches are ${names.join(', ')}${more}`;
  return unmarked(`${quoted(branch, 40)} is not a branch of ${truncatePlain(code, 60)}; ${known}.`);
}

/** The stock access lists name people or channels, and a workflow run carries neither. */
export function stepRefusedText(): string {
  return 'Stock lookups are limited to certain people or channels here, so workflows cannot use this step; ask an admin.';
}

/**
 * A lookup that failed (busy budget, ERP down or odd data): the words /stock uses. A run has
 * no Try again button, so a failure that may pass says when the step can be run again.
 */
export function stepErrorText(error: unknown): string {
  const passing = passingFailure(error);
  if (passing === undefined) return unmarked(errorToUserMessage(error));
  return unmarked(`${passing.problem}; the step can be run again in ${passing.wait}.`);
}
