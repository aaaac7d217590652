import { describe, expect, it } from 'vitest';
import { nearestCodes } from '../../src/catalogue/suggest.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { itemSearchList } from '../../src/views/searchLists.js';
import { makeFreshness, makePage, TEST_NOW } from '../helpers/builders.js';
import { allText, buttons } from '../views/inspect.js';

const codes = ['WIDGET-9', 'WIDGET-90', 'WIDGET-99', 'PUMP-220', 'GADGET-9', 'W9', 'Café-1'];

describe('nearestCodes', () => {
  it.each([
    ['WIDGT-9', ['WIDGET-9']],
    ['widget9', ['WIDGET-9']],
    ['WIDEGT-9', ['WIDGET-9']],
    ['widget 90', ['WIDGET-90']],
    ['WIDGET-8', ['WIDGET-9']],
    ['WIDGET-9X', ['WIDGET-9', 'WIDGET-90', 'WIDGET-99']],
    ['PUMP220', ['PUMP-220']],
    ['cafe1', ['Café-1']],
  ])('%j → %j', (typed, expected) => {
    expect(nearestCodes(codes, typed)).toEqual(expected);
  });

  it('offers nothing far off, nothing for one character, and never the code itself', () => {
    expect(nearestCodes(codes, 'BOLT-1')).toEqual([]);
    expect(nearestCodes(codes, 'W')).toEqual([]);
    expect(nearestCodes(codes, 'PUMP-220')).toEqual([]);
    expect(nearestCodes(codes, 'x'.repeat(10_000))).toEqual([]);
  });
});

describe('itemSearchList: did you mean', () => {
  it('offers a View button for each close code when nothing matched', () => {
    const message = itemSearchList({
      query: { words: ['WIDGT-9'] },
      page: makePage([]),
      freshness: makeFreshness(),
      now: TEST_NOW,
      fromCode: true,
      suggestions: ['WIDGET-9', 'WIDGET-90'],
    });
    expect(allText(message)).toContain('Did you mean `WIDGET-9` or `WIDGET-90`?');
    expect(message.text).toContain('Did you mean WIDGET-9 or WIDGET-90?');
    expect(buttons(message).map((b) => [b.label, b.state])).toEqual([
      ['View WIDGET-9', { v: 1, t: 'i', r: { c: 'WIDGET-9' } }],
      ['View WIDGET-90', { v: 1, t: 'i', r: { c: 'WIDGET-90' } }],
    ]);
    expect(checkMessageLimits(message)).toEqual([]);
  });
});
