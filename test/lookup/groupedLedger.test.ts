/**
 * A group of requesters (a workflow step's runs) as one requester of the budget: the group
 * holds at most one share whatever members it names, and one member's burst leaves room in
 * that share for the group's next member.
 */
import { describe, expect, it } from 'vitest';
import { GroupedLedger, groupMember } from '../../src/lookup/fairQueue.js';
import { fairShare, MemoryLedger } from '../../src/lookup/ledger.js';

const WINDOW_MS = 60_000;
const RESERVE = 1 / 6;

function ledger() {
  const clock = { now: 1_000 };
  const now = () => clock.now;
  const budget = new MemoryLedger(60, WINDOW_MS, now, fairShare(60, RESERVE));
  return {
    clock,
    budget,
    grouped: new GroupedLedger(budget, { windowMs: WINDOW_MS, reserveFraction: RESERVE, now }),
  };
}

/** Slots `requester` is granted, asking until refused. */
function drain(grouped: GroupedLedger, requester: string) {
  const slots = [];
  for (;;) {
    const result = grouped.tryAcquire(requester);
    if (result instanceof Promise) throw new Error('a memory budget answers at once');
    if (!result.granted) return { slots, refusal: result.refusal };
    slots.push(result.slot);
  }
}

describe('GroupedLedger', () => {
  it('caps every member of a group together at one share, counted as the group', () => {
    const { grouped, budget } = ledger();
    let granted = 0;
    for (let i = 0; i < 100; i += 1) {
      const result = grouped.tryAcquire(groupMember('workflow:Fn1', `U0P${i}`));
      if (!(result instanceof Promise) && result.granted) granted += 1;
    }
    expect(granted).toBe(budget.share);
    expect(budget.heldBy('workflow:Fn1')).toBe(budget.share);
    expect(grouped.heldBy(groupMember('workflow:Fn1', 'U0ANY'))).toBe(budget.share);
    // The rest of the budget is still anyone else's.
    expect(drain(grouped, 'U0CAROL').slots.length).toBeGreaterThan(0);
  });

  it('leaves room in the group’s share for its next member after one member’s burst', () => {
    const { grouped, budget } = ledger();
    const alice = drain(grouped, groupMember('workflow:Fn1', 'U0ALICE'));
    expect(alice.refusal).toBe('share');
    expect(alice.slots.length).toBeLessThan(budget.share);
    expect(drain(grouped, groupMember('workflow:Fn1', 'U0BOB')).slots.length).toBeGreaterThan(0);
  });

  it('frees the member’s place and the group’s slot together', () => {
    const { grouped, budget, clock } = ledger();
    const member = groupMember('workflow:Fn1', 'U0ALICE');
    const { slots } = drain(grouped, member);
    const [first, second] = slots;
    if (!first || !second) throw new Error('no slots');
    grouped.cancel(first);
    expect(budget.heldBy('workflow:Fn1')).toBe(slots.length - 1);
    expect(drain(grouped, member).slots).toHaveLength(1);
    grouped.complete(second);
    clock.now += WINDOW_MS + 1;
    expect(drain(grouped, member).slots).toHaveLength(1);
  });

  it('waits for a member until both its group’s turn and its own within the group come', () => {
    const { grouped, budget, clock } = ledger();
    const alice = groupMember('workflow:Fn1', 'U0ALICE');
    expect(grouped.shareWaitMs(alice, 0)).toBe(0);
    for (const slot of drain(grouped, alice).slots) grouped.complete(slot);
    clock.now += 1_000;
    // Alice holds her part of the group's share: her next run waits for her first slot…
    expect(grouped.shareWaitMs(alice, 0)).toBe(WINDOW_MS - 1_000);
    // …though the group, and the budget, still have room for another member's.
    expect(budget.shareWaitMs('workflow:Fn1', 0)).toBe(0);
    expect(grouped.shareWaitMs(groupMember('workflow:Fn1', 'U0BOB'), 0)).toBe(0);
    expect(grouped.waitMs(0)).toBe(0);
    // Once the group holds its whole share, a new member waits too.
    for (let i = 0; i < 100 && budget.heldBy('workflow:Fn1') < budget.share; i += 1) {
      drain(grouped, groupMember('workflow:Fn1', `U0M${i}`));
    }
    expect(budget.heldBy('workflow:Fn1')).toBe(budget.share);
    expect(grouped.shareWaitMs(groupMember('workflow:Fn1', 'U0NEW'), 0)).toBe(WINDOW_MS - 1_000);
    expect(grouped.waitMs(0)).toBe(budget.waitMs(0));
  });
});
