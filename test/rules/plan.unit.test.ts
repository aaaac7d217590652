import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fewestBranches,
  fillPlan,
  MAX_SPLIT,
  type PlanBranch,
  type PlanInput,
  splitPossible,
} from '../../src/rules/plan.js';
import { stockVerdict } from '../../src/rules/stock.js';
import { makeBranch, makeItem } from '../helpers/builders.js';

const widget = makeItem({
  code: 'WIDGET-9',
  onorder: 120,
  branches: [
    makeBranch({ id: 1, name: 'Sydney', soh: 40, allocated: 3, onorder: 0 }),
    makeBranch({ id: 2, name: 'Brisbane', soh: 7, allocated: 0, onorder: 0 }),
    makeBranch({ id: 3, name: 'Perth', soh: 2, allocated: 4, onorder: 120 }),
    makeBranch({ id: 4, name: 'Hobart', soh: 1, allocated: 0, onorder: 0 }),
  ],
});

describe('the plan after a No', () => {
  it('a No at Sydney for 40: a split with Sydney first, and nothing on order there', () => {
    const { plan } = stockVerdict(widget, { quantity: 40, branchWords: ['sydney'] });
    expect(plan).toEqual([
      {
        kind: 'split',
        quantity: 40,
        parts: [
          { branch: { id: 1, name: 'Sydney', available: 37 }, take: 37 },
          { branch: { id: 2, name: 'Brisbane', available: 7 }, take: 3 },
        ],
      },
    ]);
    expect(splitPossible(plan)).toBe(true);
  });

  it('a company-wide Yes no single branch fills: the split alone, no "later"', () => {
    const verdict = stockVerdict(widget, { quantity: 40 });
    expect(verdict.canSupply).toBe(true);
    expect(verdict.plan.map((o) => o.kind)).toEqual(['split']);
  });

  it('a company-wide Yes one branch fills: no plan', () => {
    expect(stockVerdict(widget, { quantity: 30 }).plan).toEqual([]);
  });

  it('a No at Perth: Sydney has it all, a split from Perth is not offered (it holds none), and what is on order', () => {
    const { plan } = stockVerdict(widget, { quantity: 20, branchWords: ['perth'] });
    expect(plan).toEqual([
      { kind: 'whole', quantity: 20, branch: { id: 1, name: 'Sydney', available: 37 } },
      { kind: 'later', quantity: 20, now: 0, onOrder: 120 },
    ]);
  });

  it('a company-wide No: what is free now and what is on order, never counted', () => {
    const { plan, canSupply, promisable } = stockVerdict(widget, { quantity: 60 });
    expect(canSupply).toBe(false);
    expect(plan).toEqual([{ kind: 'later', quantity: 60, now: promisable, onOrder: 120 }]);
    expect(splitPossible(plan)).toBe(false);
  });

  it('no plan without a quantity, or for a Yes at a branch', () => {
    expect(stockVerdict(widget, { branchWords: ['perth'] }).plan).toEqual([]);
    expect(stockVerdict(widget, { quantity: 5, branchWords: ['sydney'] }).plan).toEqual([]);
  });

  it('a decimal quantity gets its plan too: 40.5 m of cable split over two branches', () => {
    const cable = makeItem({
      code: 'CBL-W9',
      onorder: 0,
      branches: [
        makeBranch({ id: 1, name: 'Adelaide', soh: 37.2, allocated: 0, onorder: 0 }),
        makeBranch({ id: 2, name: 'Geelong', soh: 3.3, allocated: 0, onorder: 0 }),
      ],
    });
    const { plan, canSupply } = stockVerdict(cable, { quantity: 40.5, branchWords: ['adelaide'] });
    expect(canSupply).toBe(false);
    expect(plan).toEqual([
      {
        kind: 'split',
        quantity: 40.5,
        parts: [
          { branch: { id: 1, name: 'Adelaide', available: 37.2 }, take: 37.2 },
          { branch: { id: 2, name: 'Geelong', available: 3.3 }, take: 3.3 },
        ],
      },
    ]);
  });

  it('more than three branches needed: no split', () => {
    expect(
      fewestBranches(
        widget.branches.map((b) => ({ ...b })),
        46,
      ),
    ).toEqual(undefined);
  });
});

const branchesArb = fc
  .uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 30 }),
      name: fc.constantFrom('Sydney', 'Perth', 'Brisbane', 'Hobart', 'Darwin', 'Cairns'),
      available: fc.integer({ min: -50, max: 200 }),
    }),
    { selector: (b) => b.id, maxLength: 8 },
  )
  .map((bs): PlanBranch[] => bs);

const inputArb: fc.Arbitrary<PlanInput> = branchesArb.chain((branches) =>
  fc
    .record({
      quantity: fc.integer({ min: 1, max: 500 }),
      asked: fc.option(fc.constantFrom(...branches.map((b) => b.id), 999), { nil: undefined }),
      onOrder: fc.integer({ min: 0, max: 300 }),
    })
    .map(({ quantity, asked, onOrder }) => {
      const scope =
        asked === undefined
          ? branches.reduce((sum, b) => sum + b.available, 0)
          : (branches.find((b) => b.id === asked)?.available ?? 0);
      const now = Math.max(scope, 0);
      return {
        quantity,
        ...(asked === undefined ? {} : { askedBranchId: asked }),
        branches,
        now,
        onOrder,
        canSupply: now >= quantity,
      };
    }),
);

const held = (b: PlanBranch) => Math.max(b.available, 0);

/** Every subset of the branches holding stock, as the brute force to compare against. */
function subsets<T>(items: readonly T[]): T[][] {
  const all: T[][] = [[]];
  for (const item of items) for (const s of [...all]) all.push([...s, item]);
  return all;
}

describe('plan properties', () => {
  it('never promises more than a branch holds, and a split adds up to the quantity', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const plan = fillPlan(input);
        expect(plan.length).toBeLessThanOrEqual(3);
        for (const option of plan) {
          if (option.kind === 'whole') {
            expect(held(option.branch)).toBeGreaterThanOrEqual(input.quantity);
            expect(option.branch.id).not.toBe(input.askedBranchId);
          }
          if (option.kind === 'split') {
            expect(option.parts.length).toBeGreaterThan(1);
            expect(option.parts.length).toBeLessThanOrEqual(MAX_SPLIT);
            for (const part of option.parts) {
              const branch = input.branches.find((b) => b.id === part.branch.id);
              expect(part.take).toBeGreaterThan(0);
              expect(part.take).toBeLessThanOrEqual(held(branch as PlanBranch));
            }
            expect(new Set(option.parts.map((p) => p.branch.id)).size).toBe(option.parts.length);
            expect(option.parts.reduce((sum, p) => sum + p.take, 0)).toBe(input.quantity);
          }
          if (option.kind === 'later') {
            // On order is never counted: "now" is only what is free.
            expect(option.now).toBeLessThanOrEqual(input.now);
            expect(option.now).toBeLessThan(input.quantity);
            expect(input.canSupply).toBe(false);
          }
        }
      }),
    );
  });

  it('never uses more branches than needed, the asked branch first when it holds any', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const asked = input.branches.find((b) => b.id === input.askedBranchId && held(b) > 0);
        const parts = fewestBranches(input.branches, input.quantity, input.askedBranchId);
        const holding = input.branches.filter((b) => held(b) > 0);
        const covering = subsets(holding).filter(
          (s) =>
            (asked === undefined || s.includes(asked)) &&
            s.reduce((sum, b) => sum + held(b), 0) >= input.quantity,
        );
        const fewest = Math.min(...covering.map((s) => s.length));
        if (parts === undefined) {
          expect(fewest > MAX_SPLIT || covering.length === 0).toBe(true);
        } else {
          expect(parts.length).toBe(fewest);
          if (asked !== undefined) expect(parts[0]?.branch.id).toBe(asked.id);
        }
      }),
    );
  });

  it('the same figures give the same plan, whatever order the branches come in', () => {
    fc.assert(
      fc.property(inputArb, fc.integer(), (input, seed) => {
        const shuffled = [...input.branches].sort(
          (a, b) => ((a.id * 7919 + seed) % 101) - ((b.id * 7919 + seed) % 101),
        );
        expect(fillPlan({ ...input, branches: shuffled })).toEqual(fillPlan(input));
        expect(fillPlan(input)).toEqual(fillPlan(structuredClone(input)));
      }),
    );
  });
});
