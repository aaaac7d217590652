/**
 * The stock rules. "Can I promise 50 of WIDGET-9 in Perth?" worked out from the item the lookup service returns:
 * one code path for `/stock CODE N branch`, the card's summary and the workflow step. Pure:
 * src/views/itemParts.ts turns the result into the sentence people read.
 *
 * Available is SOH minus allocated; a negative available is over-allocation and counts as 0
 * for a promise. On-order stock is never counted: the ERP gives no due date for it. Below,
 * the branch words a question names, matched to the item's branches.
 */
import type { BranchStock, Item } from '../erp/schemas.js';
import { fillPlan, type PlanOption } from './plan.js';

export interface VerdictQuestion {
  /** Units wanted; undefined: "is there any?". */
  quantity?: number;
  /** Words naming a branch; none: the whole company. */
  branchWords?: readonly string[];
}

export interface VerdictBranch {
  id: number;
  name: string;
  available: number;
}

export interface StockVerdict {
  code: string;
  description: string;
  quantity: number | undefined;
  /** The branch the words named; undefined: company-wide (or no word named one). */
  branch: VerdictBranch | undefined;
  /** At the branch, else company-wide; negative when over-allocated. */
  available: number;
  /** What can be promised now: `available`, never below 0. */
  promisable: number;
  /** At the branch, else company-wide. Never part of `available`. */
  onOrder: number;
  /** `promisable >= quantity`, or `promisable > 0` without a quantity. */
  canSupply: boolean;
  /** Other branches that could cover the quantity alone, most available first. */
  coveringBranches: VerdictBranch[];
  /** Branch words that named no branch of this item (the card notes them). */
  unknownWords: string[];
  /** After a "No", or a company-wide "Yes" no branch fills alone: ways to fill it (plan.ts). */
  plan: PlanOption[];
}

const briefly = (b: { id: number; name: string; soh: number; allocated: number }) => ({
  id: b.id,
  name: b.name,
  available: availableOf(b),
});

export function stockVerdict(item: Item, question: VerdictQuestion = {}): StockVerdict {
  const { branch, unknownWords } = matchBranch(item.branches, question.branchWords ?? []);
  const available = branch === undefined ? availableOf(item) : availableOf(branch);
  const promisable = Math.max(available, 0);
  const quantity = question.quantity;
  const canSupply = quantity === undefined ? promisable > 0 : promisable >= quantity;
  const onOrder = branch === undefined ? item.onorder : branch.onorder;
  return {
    code: item.code,
    description: item.description,
    quantity,
    branch: branch === undefined ? undefined : briefly(branch),
    available,
    promisable,
    onOrder,
    canSupply,
    coveringBranches: coveringBranches(item, quantity, branch?.id).map(briefly),
    unknownWords,
    plan:
      quantity === undefined
        ? []
        : fillPlan({
            quantity,
            ...(branch === undefined ? {} : { askedBranchId: branch.id }),
            branches: item.branches.map(briefly),
            now: promisable,
            onOrder,
            canSupply,
          }),
  };
}

// Branch words (`/stock WIDGET-9 50 perth`, the workflow step's `branch`) matched to an item's
// branches: by name ignoring case, whole or as a prefix of at least 3 letters; a name of
// several words may be typed as several words (`perth airport`). Pure: no I/O, no wording.

/** The shortest prefix that names a branch: `pe` would match too much to be meant. */
const MIN_BRANCH_PREFIX = 3;
/** Longest run of words tried as one branch name. */
const MAX_NAME_WORDS = 4;

interface BranchMatch {
  /** The first branch the words name; undefined when none does (or none was asked for). */
  branch: BranchStock | undefined;
  /** Words that named no branch, or more than one, as typed (for a note on the card). */
  unknownWords: string[];
}

/** Case and accents aside, as the rules compare typed words with names (branches, people). */
export const fold = (text: string): string =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

const foldName = (text: string): string => fold(text).replace(/\s+/g, ' ').trim();

/** The one branch `phrase` names: an exact name first, else the only name it prefixes. */
function branchNamed(branches: readonly BranchStock[], phrase: string): BranchStock | undefined {
  const wanted = foldName(phrase);
  if (wanted === '') return undefined;
  const exact = branches.filter((b) => foldName(b.name) === wanted);
  if (exact.length === 1) return exact[0];
  if (exact.length > 1 || [...wanted].length < MIN_BRANCH_PREFIX) return undefined;
  const prefixed = branches.filter((b) => foldName(b.name).startsWith(wanted));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/**
 * Reads `words` left to right, taking the longest run that names a branch. The first branch
 * named is the one asked about; words naming nothing (or a second branch) are returned.
 */
export function matchBranch(
  branches: readonly BranchStock[],
  words: readonly string[],
): BranchMatch {
  let branch: BranchStock | undefined;
  const unknownWords: string[] = [];
  let i = 0;
  while (i < words.length) {
    let taken = 0;
    for (let n = Math.min(MAX_NAME_WORDS, words.length - i); n >= 1; n -= 1) {
      const found = branchNamed(branches, words.slice(i, i + n).join(' '));
      if (found === undefined) continue;
      if (branch === undefined) branch = found;
      else if (found.id !== branch.id) unknownWords.push(...words.slice(i, i + n));
      taken = n;
      break;
    }
    if (taken === 0) {
      unknownWords.push(words[i] ?? '');
      taken = 1;
    }
    i += taken;
  }
  return { branch, unknownWords };
}

/** What a branch (or the company) can promise: SOH minus allocated; negative is over-allocated. */
export function availableOf(stock: Pick<BranchStock, 'soh' | 'allocated'>): number {
  return stock.soh - stock.allocated;
}

/** Branches that could cover `quantity` alone (any stock when undefined), most available first. */
export function coveringBranches(
  item: Pick<Item, 'branches'>,
  quantity: number | undefined,
  except?: number,
): BranchStock[] {
  const needed = Math.max(quantity ?? 1, 1);
  return item.branches
    .filter((b) => b.id !== except && availableOf(b) >= needed)
    .sort((a, b) => availableOf(b) - availableOf(a) || a.name.localeCompare(b.name));
}

/**
 * The branches that hold stock, most available first (then most on hand): who could be meant
 * when branch words named none. At most `limit`.
 */
export function branchesHoldingStock(item: Pick<Item, 'branches'>, limit: number): VerdictBranch[] {
  return item.branches
    .filter((b) => b.soh > 0)
    .sort(
      (a, b) => availableOf(b) - availableOf(a) || b.soh - a.soh || a.name.localeCompare(b.name),
    )
    .slice(0, limit)
    .map(briefly);
}
