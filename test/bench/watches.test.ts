/**
 * The watches benchmark's plan: 1,000 watches over 300 items that the app would accept as
 * made (at most WATCH_MAX_PER_CHANNEL a channel, one watch per item in a channel), none past
 * when made, and a move to 0 crossing every "below" one, so each moved item owes its alerts.
 */
import { describe, expect, it } from 'vitest';
import { planWatches, WATCH_LIMITS, watchableCodes } from '../../bench/watches.js';
import { generateSandboxData } from '../../src/sandbox/index.js';
import { isPast } from '../../src/watches/rules.js';
import { makeItem } from '../helpers/builders.js';

const data = generateSandboxData(11);
const codes = watchableCodes(data, 300);
const items = new Map(
  data.items
    .filter((i) => codes.includes(i.record.code))
    .map((i) => [
      i.record.code,
      makeItem({ code: i.record.code, soh: i.record.soh, allocated: i.record.allocated }),
    ]),
);
const plans = planWatches(codes, items);

describe('the watches benchmark plan', () => {
  it('makes 1,000 watches over 300 items', () => {
    expect(codes).toHaveLength(300);
    expect(plans).toHaveLength(1_000);
    expect(new Set(plans.map((p) => p.code)).size).toBe(300);
  });

  it('keeps every channel within WATCH_MAX_PER_CHANNEL and one watch per item a channel', () => {
    const perChannel = new Map<string, number>();
    for (const p of plans) perChannel.set(p.channel, (perChannel.get(p.channel) ?? 0) + 1);
    expect(Math.max(...perChannel.values())).toBeLessThanOrEqual(WATCH_LIMITS.maxPerChannel);
    expect(new Set(plans.map((p) => `${p.channel} ${p.code}`)).size).toBe(plans.length);
  });

  it('makes no watch past, and a move to 0 crosses every "below" one', () => {
    for (const p of plans) {
      const item = items.get(p.code);
      if (!item) throw new Error(p.code);
      const available = Math.max(0, item.soh - item.allocated);
      expect(isPast(p.direction, p.threshold, available)).toBe(false);
      expect(isPast(p.direction, p.threshold, 0)).toBe(p.direction === 'below');
    }
  });
});
