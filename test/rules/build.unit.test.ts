import { describe, expect, it } from 'vitest';
import { buildCheck, type ComponentFigures, needed } from '../../src/rules/build.js';
import { makeBomComponent, makeBranch, makeItem } from '../helpers/builders.js';

const seal = makeItem({
  code: 'SEAL-12',
  soh: 44,
  allocated: 0,
  branches: [
    makeBranch({ id: 1, name: 'Perth', soh: 4, allocated: 0 }),
    makeBranch({ id: 2, name: 'Sydney', soh: 40, allocated: 0 }),
  ],
});
const bolt = makeItem({
  code: 'BOLT-1',
  soh: 500,
  allocated: 10,
  branches: [
    makeBranch({ id: 1, name: 'Perth', soh: 300, allocated: 0 }),
    makeBranch({ id: 2, name: 'Sydney', soh: 200, allocated: 10 }),
  ],
});
const pump = makeItem({
  code: 'PUMP-1',
  bom: [
    makeBomComponent({ code: 'SEAL-12', qty: 2 }),
    makeBomComponent({ code: 'BOLT-1', qty: 0.5 }),
  ],
});
const all = new Map<string, ComponentFigures>([
  ['SEAL-12', seal],
  ['BOLT-1', bolt],
]);

describe('buildCheck', () => {
  it('company-wide: enough for the fewest any component allows', () => {
    const check = buildCheck(pump, { quantity: 10 }, all);
    expect(check).toMatchObject({ canBuild: true, complete: true, enoughFor: 22, short: [] });
  });

  it('at a branch: names the short component, its need, free there and where it is held', () => {
    const check = buildCheck(pump, { quantity: 10, branchName: 'Perth' }, all);
    expect(check.canBuild).toBe(false);
    expect(check.short).toEqual([
      { code: 'SEAL-12', need: 20, free: 4, heldAt: [{ name: 'Sydney', free: 40 }] },
    ]);
    expect(check.enoughFor).toBe(2);
  });

  it('a fractional quantity rounds up; on order never counts', () => {
    expect(needed(0.5, 3)).toBe(2);
    expect(needed(0.25, 4)).toBe(1);
    const onOrder = makeItem({ ...seal, soh: 0, allocated: 0, onorder: 500, branches: [] });
    const check = buildCheck(pump, { quantity: 1 }, new Map([['SEAL-12', onOrder]]));
    expect(check.short[0]).toMatchObject({ code: 'SEAL-12', need: 2, free: 0 });
  });

  it('partial figures: how many are checked, never a Yes until all are', () => {
    const check = buildCheck(pump, { quantity: 1 }, new Map([['BOLT-1', bolt]]));
    expect(check).toMatchObject({ checked: 1, total: 2, complete: false, canBuild: false });
  });

  it('a component the ERP no longer has is a No; no bill of materials is said', () => {
    const check = buildCheck(pump, { quantity: 1 }, new Map([...all, ['BOLT-1', 'missing']]));
    expect(check).toMatchObject({ canBuild: false, missing: ['BOLT-1'] });
    expect(buildCheck(makeItem({ bom: [] }), { quantity: 1 }, all)).toMatchObject({
      total: 0,
      canBuild: false,
    });
  });
});
