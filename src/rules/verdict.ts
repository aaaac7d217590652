/**
 * "Can I promise 50 of WIDGET-9 in Perth?" worked out from the item the lookup service returns:
 * one code path for `/stock CODE N branch`, the card's summary and the workflow step. Pure:
 * src/views/verdict.ts turns the result into the sentence people read.
 *
 * Available is SOH minus allocated; a negative available is over-allocation and counts as 0
 * for a promise. On-order stock is never counted: the ERP gives no due date for it.
 */
import type { Item } from '../erp/schemas.js';
import { availableOf, coveringBranches, matchBranch } from './branches.js';

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
  return {
    code: item.code,
    description: item.description,
    quantity,
    branch: branch === undefined ? undefined : briefly(branch),
    available,
    promisable,
    onOrder: branch === undefined ? item.onorder : branch.onorder,
    canSupply: quantity === undefined ? promisable > 0 : promisable >= quantity,
    coveringBranches: coveringBranches(item, quantity, branch?.id).map(briefly),
    unknownWords,
  };
}
