import { describe, expect, it } from 'vitest';
import { drawnItemCard } from '../../src/slack/answers.js';
import { makeFreshness, makeItem, TEST_NOW } from '../helpers/builders.js';
import { allText } from '../views/inspect.js';

describe('drawnItemCard: drawn once per item and state', () => {
  it('hands back the card it drew for the same item object and state, and draws every other state', () => {
    const item = makeItem({ code: 'MEMO-1' });
    const freshness = makeFreshness();
    const first = drawnItemCard({ item, freshness, now: TEST_NOW });
    expect(drawnItemCard({ item, freshness: makeFreshness(), now: new Date() })).toBe(first);
    const states = [
      { shared: true },
      { branchView: 'all' as const },
      { branchView: 'all' as const, branchPage: 1 },
      { bomPage: 1 },
      { path: ['TOP-1'] },
      { path: ['TOP-1'], pathPages: [2] },
      { sandbox: true },
      { shareCost: true, shared: true },
      { freshness: { ...freshness, stale: true } },
      { freshness: { ...freshness, stale: true, staleBecause: 'busy' as const } },
      { freshness: { ...freshness, fromCache: true } },
      { freshness: { ...freshness, fetchedAt: new Date(freshness.fetchedAt.getTime() + 1) } },
    ];
    const cards = states.map((state) =>
      drawnItemCard({ item, freshness, now: TEST_NOW, ...state }),
    );
    expect(new Set([first, ...cards]).size).toBe(states.length + 1);
  });

  it('draws again for a newly fetched item with the same code and time, never the old figures', () => {
    const freshness = makeFreshness();
    const before = drawnItemCard({
      item: makeItem({ code: 'MEMO-2', soh: 5 }),
      freshness,
      now: TEST_NOW,
    });
    const after = drawnItemCard({
      item: makeItem({ code: 'MEMO-2', soh: 7 }),
      freshness,
      now: TEST_NOW,
    });
    expect(after).not.toBe(before);
    expect(allText(after)).toContain('On hand 7');
  });
});
