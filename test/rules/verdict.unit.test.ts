import { describe, expect, it } from 'vitest';
import { matchBranch, stockVerdict } from '../../src/rules/stock.js';
import {
  branchFirst,
  coverLine,
  unknownBranchNote,
  verdictBlocks,
  verdictLine,
  verdictSentence,
} from '../../src/views/itemParts.js';
import { makeBranch, makeItem } from '../helpers/builders.js';

const branches = [
  makeBranch({ id: 1, name: 'Sydney', soh: 210, allocated: 10, onorder: 0 }),
  makeBranch({ id: 2, name: 'Perth', soh: 30, allocated: 42, onorder: 120 }),
  makeBranch({ id: 3, name: 'Melbourne', soh: 70, allocated: 6, onorder: 0 }),
  makeBranch({ id: 4, name: 'Melton', soh: 0, allocated: 0, onorder: 0 }),
  makeBranch({ id: 5, name: 'Perth Airport', soh: 5, allocated: 0, onorder: 0 }),
  makeBranch({ id: 6, name: 'Brisbane', soh: 20, allocated: 0, onorder: 0 }),
];
const item = makeItem({ code: 'WIDGET-9', branches });

describe('matchBranch', () => {
  it.each([
    [['perth'], 'Perth', []],
    [['PERTH'], 'Perth', []],
    [['syd'], 'Sydney', []],
    [['perth', 'airport'], 'Perth Airport', []],
    [['perth', 'airp'], 'Perth Airport', []],
    [['brisbane', 'mel'], 'Brisbane', ['mel']],
    [['melb'], 'Melbourne', []],
    [['sy'], undefined, ['sy']],
    [['hobart'], undefined, ['hobart']],
    [['hobart', 'perth'], 'Perth', ['hobart']],
  ] as const)('%j names %s', (words, name, unknown) => {
    const match = matchBranch(branches, words);
    expect(match.branch?.name).toBe(name);
    expect(match.unknownWords).toEqual(unknown);
  });

  it('ignores accents and keeps the asked branch first', () => {
    const accented = [makeBranch({ id: 9, name: 'Montréal' }), ...branches];
    expect(matchBranch(accented, ['montreal']).branch?.id).toBe(9);
    expect(branchFirst(branches, 3).map((b) => b.id)).toEqual([3, 1, 2, 4, 5, 6]);
  });
});

describe('stockVerdict', () => {
  it('company-wide yes: available is SOH minus allocated, on order never counted', () => {
    const v = stockVerdict(item, { quantity: 50 });
    expect(v).toMatchObject({
      branch: undefined,
      available: 335 - 58,
      onOrder: 120,
      canSupply: true,
      unknownWords: [],
    });
    expect(v.coveringBranches.map((b) => b.name)).toEqual(['Sydney', 'Melbourne']);
    expect(verdictLine(v)).toBe('Yes: 277 free company-wide, 120 on order with no date');
    expect(verdictSentence(v)).toBe(
      'Yes, 50 of WIDGET-9: 277 free company-wide, 120 on order with no date.',
    );
  });

  it('an over-allocated branch is a no, counts 0, and names who could cover it, best first', () => {
    const v = stockVerdict(item, { quantity: 50, branchWords: ['perth'] });
    expect(v).toMatchObject({
      branch: { id: 2, name: 'Perth', available: -12 },
      available: -12,
      promisable: 0,
      onOrder: 120,
      canSupply: false,
    });
    expect(v.coveringBranches.map((b) => [b.name, b.available])).toEqual([
      ['Sydney', 200],
      ['Melbourne', 64],
    ]);
    // One line of about 80 characters, and who could cover it on the next.
    expect(verdictLine(v)).toBe(
      'No: Perth has 0 free (12 over-allocated), 120 on order with no date',
    );
    expect(coverLine(v)).toBe('Sydney could: 200 free · Melbourne: 64');
    expect(verdictSentence(v)).toBe(
      'No, 50 of WIDGET-9 at Perth: Perth has 0 free (12 over-allocated), 120 on order with no date. Sydney could: 200 free · Melbourne: 64',
    );
  });

  it('says when no single branch can cover the quantity', () => {
    const v = stockVerdict(item, { quantity: 250 });
    expect(v.canSupply).toBe(true);
    const no = stockVerdict(item, { quantity: 300 });
    expect(no.canSupply).toBe(false);
    expect(verdictSentence(no)).toMatch(/No single branch has 300 free\.$/);
  });

  it('exactly the quantity is a yes; one more is a no', () => {
    expect(stockVerdict(item, { quantity: 64, branchWords: ['melb'] }).canSupply).toBe(true);
    expect(stockVerdict(item, { quantity: 65, branchWords: ['melb'] }).canSupply).toBe(false);
  });

  it('without a quantity: any stock at the branch is a yes', () => {
    const v = stockVerdict(item, { branchWords: ['melton'] });
    expect(v.canSupply).toBe(false);
    expect(verdictSentence(v)).toBe(
      'None free, WIDGET-9 at Melton: Melton has 0 free. Sydney could: 200 free · Melbourne: 64 · Brisbane: 20 · 1 more',
    );
    expect(stockVerdict(item, { branchWords: ['syd'] }).canSupply).toBe(true);
  });

  it('unknown branch words name no branch; the note names them and the branches', () => {
    const v = stockVerdict(item, { quantity: 5, branchWords: ['hobart'] });
    expect(v.branch).toBeUndefined();
    expect(v.unknownWords).toEqual(['hobart']);
    const note = unknownBranchNote(
      v.unknownWords,
      branches.map((b) => b.name),
    );
    expect(note).toBe(
      '“hobart”: not a branch here (Sydney, Perth, Melbourne, Melton, Perth Airport, Brisbane).',
    );
  });

  it('escapes what the ERP names in the blocks', () => {
    const odd = makeItem({
      code: 'A<B>',
      branches: [makeBranch({ id: 1, name: '<!here>', soh: 9 })],
    });
    const text = JSON.stringify(
      verdictBlocks(stockVerdict(odd, { quantity: 1, branchWords: ['<!here>'] })),
    );
    expect(text).not.toContain('<!here>');
    expect(text).toContain('&lt;!here&gt;');
  });
});
