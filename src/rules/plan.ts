/**
 * The plan after a "No" (and after a company-wide "Yes" no single branch can fill): at most
 * three ways to fill the order, worked out from the branches' figures alone. Pure: the same
 * figures give the same plan; src/views/planParts.ts turns it into words.
 *
 * - `whole`: one branch that holds it all (the most available, other than the asked one);
 * - `split`: the fewest branches, at most three, that together hold it, the asked branch first
 *   when it holds any (its stock is used first); each part never more than its branch holds;
 * - `later`: what is free now beside what is on order. On-order stock is never counted as
 *   available (the ERP gives no due date for it), so this option never says "Yes".
 */

/** A branch as the plan sees it: what it can promise now (negative counts as 0). */
export interface PlanBranch {
  id: number;
  name: string;
  available: number;
}

export interface PlanInput {
  quantity: number;
  /** The branch asked about; undefined: company-wide. */
  askedBranchId?: number;
  branches: readonly PlanBranch[];
  /** Free now at the asked branch (or company-wide), never below 0. */
  now: number;
  /** On order at the asked branch (or company-wide): never part of `now`. */
  onOrder: number;
  /** Whether the verdict was a "Yes". */
  canSupply: boolean;
}

export interface SplitPart {
  branch: PlanBranch;
  /** Units from this branch: more than 0, at most what the branch holds. */
  take: number;
}

export type PlanOption =
  | { kind: 'whole'; branch: PlanBranch; quantity: number }
  | { kind: 'split'; parts: SplitPart[]; quantity: number }
  | { kind: 'later'; now: number; onOrder: number; quantity: number };

export type PlanKind = PlanOption['kind'];

/** The most branches a split may use: more is not a plan a salesperson can ship. */
export const MAX_SPLIT = 3;

const free = (b: PlanBranch) => Math.max(b.available, 0);

/** Most available first, then by name and id: a total order, so ties never change the plan. */
function byAvailable(a: PlanBranch, b: PlanBranch): number {
  return free(b) - free(a) || a.name.localeCompare(b.name) || a.id - b.id;
}

/**
 * The fewest branches that hold `quantity` together, the asked branch first when it holds
 * any; undefined when more than MAX_SPLIT would be needed or all of them hold too little.
 * Taking the largest holdings first is optimal: no k branches hold more than the k largest.
 */
export function fewestBranches(
  branches: readonly PlanBranch[],
  quantity: number,
  askedBranchId?: number,
): SplitPart[] | undefined {
  const asked = branches.find((b) => b.id === askedBranchId && free(b) > 0);
  const others = branches.filter((b) => b !== asked && free(b) > 0).sort(byAvailable);
  const parts: SplitPart[] = [];
  let left = quantity;
  for (const branch of asked === undefined ? others : [asked, ...others]) {
    if (left <= 0 || parts.length === MAX_SPLIT) break;
    const take = Math.min(free(branch), left);
    parts.push({ branch, take });
    // Quantities may be decimal (metres of cable): what is left is rounded to a millionth, so
    // 40.5 − 37.2 − 3.3 is nothing left, not 7e-15.
    left = Math.round((left - take) * 1e6) / 1e6;
  }
  return left > 0 ? undefined : parts;
}

/** Whether a verdict calls for a plan: a "No", or a company-wide "Yes" no branch fills alone. */
export function needsPlan(input: PlanInput): boolean {
  if (!input.canSupply) return true;
  return (
    input.askedBranchId === undefined && !input.branches.some((b) => free(b) >= input.quantity)
  );
}

/** The plan: at most three options, in the order whole, split, later. */
export function fillPlan(input: PlanInput): PlanOption[] {
  const { quantity } = input;
  if (!Number.isFinite(quantity) || quantity <= 0 || !needsPlan(input)) return [];
  const options: PlanOption[] = [];
  const whole = input.branches
    .filter((b) => b.id !== input.askedBranchId && free(b) >= quantity)
    .sort(byAvailable)[0];
  if (whole !== undefined) options.push({ kind: 'whole', branch: whole, quantity });
  const parts = fewestBranches(input.branches, quantity, input.askedBranchId);
  // One part is the whole option (or the asked branch itself, a "Yes"): not a split.
  if (parts !== undefined && parts.length > 1) options.push({ kind: 'split', parts, quantity });
  if (!input.canSupply && input.onOrder > 0) {
    options.push({
      kind: 'later',
      now: Math.min(Math.max(input.now, 0), quantity),
      onOrder: input.onOrder,
      quantity,
    });
  }
  return options;
}

/**
 * Whether stock on hand fills the order from other branches, one or up to MAX_SPLIT of them
 * (the workflow step's `split_possible`): a plan with a whole or a split option.
 */
export const splitPossible = (plan: readonly PlanOption[]): boolean =>
  plan.some((option) => option.kind !== 'later');
