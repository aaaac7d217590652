import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPast, isRearmed, readItem, rearmMargin, transition } from '../../src/watches/rules.js';
import { checkIntervalSeconds } from '../../src/watches/service.js';
import { makeBranch, makeItem } from '../helpers/builders.js';
import { LIMITS } from './rig.js';

describe('watch rules', () => {
  it('compares on hand minus allocated, over-allocation kept negative, at a branch or company-wide', () => {
    const item = makeItem({
      branches: [
        makeBranch({ id: 1, name: 'Perth', soh: 5, allocated: 9, onorder: 3 }),
        makeBranch({ id: 2, name: 'Sydney', soh: 20, allocated: 4, onorder: 0 }),
      ],
    });
    expect(readItem(item, undefined)).toEqual({ available: 12, onOrder: 3 });
    expect(readItem(item, 1)).toEqual({ available: -4, onOrder: 3 });
    // Over-allocated crosses as 0 would: below any threshold, never "in stock".
    expect([isPast('below', 1, -4), isPast('above', 0, -4), isRearmed('above', 0, -4)]).toEqual([
      true,
      false,
      true,
    ]);
    expect(readItem(item, 2)).toEqual({ available: 16, onOrder: 0 });
    expect(readItem(item, 99)).toBeUndefined();
  });

  it('below N is past under N; above N at N or more; above 0 means back in stock', () => {
    expect([isPast('below', 20, 19), isPast('below', 20, 20)]).toEqual([true, false]);
    expect([isPast('above', 20, 20), isPast('above', 20, 19)]).toEqual([true, false]);
    expect([isPast('above', 0, 0), isPast('above', 0, 1)]).toEqual([false, true]);
    expect([isRearmed('above', 0, 0), isRearmed('above', 0, 1)]).toEqual([true, false]);
  });

  it('re-arms only past a tenth of the threshold, at least 1', () => {
    expect(rearmMargin(5)).toBe(1);
    expect(rearmMargin(200)).toBe(20);
    expect([isRearmed('below', 200, 219), isRearmed('below', 200, 220)]).toEqual([false, true]);
    expect([isRearmed('above', 200, 181), isRearmed('above', 200, 179)]).toEqual([false, true]);
  });

  it('a quantity wobbling within the margin crosses once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.double({ min: -0.99, max: 0.99, noNaN: true }), {
          minLength: 1,
          maxLength: 50,
        }),
        (threshold, wobbles) => {
          let state: 'armed' | 'past' = 'armed';
          let last: number | null = threshold + rearmMargin(threshold) + 1;
          let crossings = 0;
          // The first reading crosses; the rest wobble within the margin around the line.
          for (const [i, w] of [-1, ...wobbles].entries()) {
            const available =
              i === 0 ? threshold - 1 : Math.max(0, threshold + w * rearmMargin(threshold));
            const step = transition(
              { state, direction: 'below', threshold, lastAvailable: last },
              { available, onOrder: 0 },
            );
            if (step.kind === 'cross') {
              crossings += 1;
              state = 'past';
            } else if (step.kind === 'rearm') state = 'armed';
            last = available;
          }
          expect(crossings).toBe(1);
        },
      ),
    );
  });

  it('the check interval is items ÷ (share × limit) minutes, never under the floor', () => {
    expect(checkIntervalSeconds(0, LIMITS)).toBe(60);
    expect(checkIntervalSeconds(6, LIMITS)).toBe(60);
    expect(checkIntervalSeconds(300, LIMITS)).toBe(3000);
    expect(checkIntervalSeconds(10, { ...LIMITS, share: 0 })).toBe(Number.POSITIVE_INFINITY);
  });
});
