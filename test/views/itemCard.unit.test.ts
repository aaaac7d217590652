import { describe, expect, it } from 'vitest';
import { stockVerdict } from '../../src/rules/stock.js';
import { ACTION } from '../../src/views/actions.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { itemCard } from '../../src/views/itemCard.js';
import { WATCH_ACTION } from '../../src/views/watchButtons.js';
import {
  makeBomComponent,
  makeBranch,
  makeFreshness,
  makeItem,
  makeKit,
  TEST_NOW,
} from '../helpers/builders.js';
import { allText, blocksOfType, button, buttons } from './inspect.js';

// Drawn for a full member unless a test says otherwise (privacy/access.ts).
const card = (overrides: Parameters<typeof makeItem>[0] = {}, extra = {}) =>
  itemCard({
    item: makeItem(overrides),
    freshness: makeFreshness(),
    now: TEST_NOW,
    internalFigures: true,
    ...extra,
  });

describe('itemCard: the top', () => {
  it('leads with the code and the answer, then description and status, then the branches', () => {
    const message = card();
    expect(message.blocks[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*`WIDGET-9`* · *42 available* · 20 on order',
        verbatim: true,
      },
    });
    expect(message.blocks[1]).toMatchObject({
      type: 'context',
      elements: [{ text: 'Blue widget assembly · Active' }],
    });
    const text = allText(message);
    expect(text).toContain('Cost (internal) 12.50');
    expect(text).toContain('On hand 52 · Allocated 10 · Widgets · Supplier Acme Supplies');
    // What "available" means is in help, not a footnote on every card.
    expect(text).not.toContain('never counted as available');
    expect(message.text).toBe(
      'WIDGET-9: 42 available, 20 on order; fetched 3 min ago, Blue widget assembly',
    );
  });

  it('puts the sell price beside the internal cost, on one line', () => {
    const message = itemCard({
      item: makeItem(),
      freshness: makeFreshness(),
      now: TEST_NOW,
      internalFigures: true,
      price: 19.9,
    });
    expect(allText(message)).toContain('Sell *19.90* · Cost (internal) 12.50');
  });

  it('makes Disabled stand out and says over-allocation in words', () => {
    const message = card({ status_label: 'Disabled', available: -12, soh: 30, allocated: 42 });
    const text = allText(message);
    expect(text).toContain('Blue widget assembly · :no_entry: *Disabled*');
    expect(text).toContain(':warning: *12 over-allocated*');
    expect(message.text).toContain('WIDGET-9: 12 over-allocated, 20 on order (Disabled)');
  });

  it('shows readable supplier codes only', () => {
    const text = allText(card({ supplierCodes: ['AC-1', 7, { code: 'X9' }, { odd: true }, null] }));
    expect(text).toContain('Supplier codes `AC-1`, `7`, `X9`');
    expect(text).not.toContain('object');
  });
});

describe('itemCard: branches', () => {
  const branches = [
    makeBranch({ id: 1, name: 'Perth', soh: 5, allocated: 0 }),
    makeBranch({ id: 2, name: 'Hobart', soh: 0, allocated: 0 }),
    makeBranch({ id: 3, name: 'Sydney', soh: 50, allocated: 10, onorder: 4 }),
    makeBranch({ id: 4, name: 'Darwin', soh: 0, allocated: 0, onorder: 30 }),
    makeBranch({ id: 5, name: 'Cairns', soh: 0, allocated: 0 }),
    makeBranch({ id: 6, name: 'Adelaide', soh: 5, allocated: 0 }),
  ];
  const branchSection = (message: ReturnType<typeof card>) =>
    blocksOfType(message, 'section').find((b) => b.text?.text.includes(' free'));

  it('lists the branches that hold or expect stock one line each, best first', () => {
    const message = card({ branches });
    expect(branchSection(message)?.text?.text.split('\n')).toEqual([
      '*Sydney* · 40 free · 4 on order',
      '*Adelaide* · 5 free',
      '*Perth* · 5 free',
      '*Darwin* · 0 free · 30 on order',
    ]);
    expect(button(message, 'All branches (6)').state).toEqual({
      v: 1,
      t: 'i',
      r: { c: 'WIDGET-9' },
      m: 'a',
    });
  });

  it('shows at most five, then "All branches (N)"', () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      makeBranch({ id: i, name: `B${i}`, soh: i + 1, allocated: 0 }),
    );
    const message = card({ branches: many });
    const lines = branchSection(message)?.text?.text.split('\n') ?? [];
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('*B11* · 12 free');
    expect(button(message, 'All branches (12)').state).toMatchObject({ m: 'a' });
  });

  it('lists every branch in the all view, with a way back', () => {
    const message = card({ branches }, { branchView: 'all' });
    const table = blocksOfType(message, 'section').find((b) => b.text?.text.includes('```'));
    expect(table?.text?.text.split('\n')).toHaveLength(8);
    expect(button(message, 'Back').state).toEqual({ v: 1, t: 'i', r: { c: 'WIDGET-9' } });
  });

  it('offers no All branches button when every branch is already shown', () => {
    const message = card({ branches: [makeBranch()] });
    expect(buttons(message).map((b) => b.label)).toEqual(['Refresh', 'Share to channel', 'Watch…']);
  });

  it('handles 60 branches in the all view within the limits', () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      makeBranch({ id: i, name: `Branch number ${i}`, soh: i }),
    );
    const message = card({ branches: many }, { branchView: 'all' });
    expect(checkMessageLimits(message)).toEqual([]);
    expect(allText(message)).toContain('Branch numbe…');
  });

  it('says so when no branch holds or expects anything', () => {
    const none = [1, 2, 3].map((id) => makeBranch({ id, name: `B${id}`, soh: 0, allocated: 0 }));
    const message = card({ branches: none });
    expect(allText(message)).toContain('No branch holds or expects stock.');
    expect(buttons(message).map((b) => b.label)).toEqual([
      'All branches (3)',
      'Refresh',
      'Share to channel',
      'Watch…',
    ]);
  });

  it('escapes names and says over-allocation in words', () => {
    const odd = [
      makeBranch({ id: 1, name: 'A `very` long branch name', soh: 1234567, allocated: 0 }),
      makeBranch({ id: 2, name: '<!here>', soh: 3, allocated: 9, onorder: 2 }),
    ];
    const text = allText(card({ branches: odd }));
    expect(text).toContain('*A `very` long bra…* · 1,234,567 free');
    expect(text).toContain('*&lt;!here&gt;* · 6 over-allocated · 2 on order');
  });
});

describe('itemCard: the question asked', () => {
  const branches = [
    makeBranch({ id: 1, name: 'Sydney', soh: 210, allocated: 10 }),
    makeBranch({ id: 2, name: 'Perth', soh: 30, allocated: 42, onorder: 120 }),
    makeBranch({ id: 3, name: 'Melbourne', soh: 70, allocated: 6 }),
  ];
  const asked = (question: { quantity?: number; branchWords?: string[] }) => {
    const item = makeItem({ branches });
    return itemCard({
      item,
      freshness: makeFreshness(),
      now: TEST_NOW,
      question,
      verdict: stockVerdict(item, question),
    });
  };

  it('answers first in one line, who could cover it (the plan) on the next, and first in the fallback', () => {
    const message = asked({ quantity: 50, branchWords: ['perth'] });
    const first = message.blocks[0];
    expect(first?.type === 'section' && first.text?.text).toBe(
      ':x: *No:* Perth has 0 free (12 over-allocated), 120 on order with no date',
    );
    expect(message.blocks[1]).toMatchObject({
      type: 'section',
      text: { text: '• Sydney has all 50: 200 free' },
      accessory: { type: 'button', text: { text: 'View' } },
    });
    expect(message.text).toMatch(
      /^No, 50 of WIDGET-9 at Perth: Perth has 0 free \(12 over-allocated\), 120 on order with no date\. Sydney could: 200 free/,
    );
    const lines = blocksOfType(message, 'section').find((b) => b.text?.text.includes('*Perth* ·'));
    expect(lines?.text?.text.split('\n')[0]).toBe('*Perth* · 12 over-allocated · 120 on order');
    // Refresh and Share keep asking the same question.
    expect(button(message, 'Share to channel').state).toMatchObject({ q: 50, b: ['perth'] });
  });

  it('notes words that name no branch beside a branch answer, never company-wide', () => {
    const message = asked({ quantity: 5, branchWords: ['perth', 'WA'] });
    expect(message.text).toMatch(/^No, 5 of WIDGET-9 at Perth/);
    expect(allText(message)).toContain('Not read as a branch: “WA”.');
    expect(allText(message)).not.toContain('company-wide');
  });

  it('without a quantity, notes words that name no branch and keeps the card', () => {
    const message = asked({ branchWords: ['price'] });
    expect(message.text).toMatch(/^WIDGET-9: 252 available/);
    expect(allText(message)).toContain('“price”: not a branch here (Sydney, Melbourne, Perth).');
    expect(checkMessageLimits(message)).toEqual([]);
  });
});

describe('itemCard: BOM drill-down', () => {
  const bom = [
    makeBomComponent({ code: 'SUB-1', qty: 0.25, has_bom: true }),
    makeBomComponent({ code: 'SCREW-4', description: 'M4 screw', qty: 12, cost: 0.0125 }),
  ];

  it('lists components with qty and cost, and an Expand button per sub-assembly', () => {
    const message = card({ bom }, { part: 'bom' });
    const text = allText(message);
    expect(text).toContain('*Bill of materials* · 2 components');
    expect(text).toContain(
      '`SUB-1` Left bracket sub-assembly · qty 0.25 · cost 4.25 · _sub-assembly_',
    );
    expect(text).toContain('`SCREW-4` M4 screw · qty 12 · cost 0.0125');
    const expand = buttons(message).filter((b) => b.label.includes('Expand'));
    expect(expand.map((b) => [b.label, b.actionId, b.state])).toEqual([
      [
        'Expand SUB-1',
        `${ACTION.itemExpand}:1`,
        { v: 1, t: 'i', r: { c: 'SUB-1' }, p: ['WIDGET-9'], m: 'b' },
      ],
    ]);
    // The card itself keeps the bill of materials behind a button, and Back returns to it.
    expect(button(card({ bom }), 'Bill of materials (2)').state).toMatchObject({ m: 'b' });
    expect(button(message, 'Back').state).toEqual({ v: 1, t: 'i', r: { c: 'WIDGET-9' } });
  });

  it('shows the path as a breadcrumb and extends it one level per click', () => {
    const message = itemCard({
      item: makeItem({
        code: 'SUB-1',
        bom: [makeBomComponent({ code: 'SUB-1-A', has_bom: true })],
      }),
      freshness: makeFreshness(),
      now: TEST_NOW,
      path: ['WIDGET-9'],
      part: 'bom',
    });
    expect(message.blocks[1]).toMatchObject({
      type: 'context',
      elements: [{ text: 'Blue widget assembly · Active · :arrow_down_small: in `WIDGET-9`' }],
    });
    expect(button(message, 'Expand').state).toMatchObject({
      r: { c: 'SUB-1-A' },
      p: ['WIDGET-9', 'SUB-1'],
    });
    expect(button(message, 'Up to WIDGET-9').state).toEqual({
      v: 1,
      t: 'i',
      r: { c: 'WIDGET-9' },
      m: 'b',
    });
  });

  it('offers no Expand past the deepest path a button can carry', () => {
    const path = Array.from({ length: 10 }, (_, i) => `L${i}`);
    const message = card({ bom }, { path, part: 'bom' });
    expect(buttons(message).some((b) => b.label.includes('Expand'))).toBe(false);
  });

  it('pages an 85-component BOM, a phone screen a page, within 50 blocks and the text budget', () => {
    const big = Array.from({ length: 85 }, (_, i) =>
      makeBomComponent({
        inventoryId: i,
        code: `PART-${i}`,
        description: `Component number ${i} with a long-ish description`,
        has_bom: i % 2 === 0,
      }),
    );
    const kits = Array.from({ length: 40 }, (_, i) =>
      makeKit({ code: `KIT-${i}`, groupname: `Group ${i % 4}` }),
    );
    const branches = Array.from({ length: 30 }, (_, i) =>
      makeBranch({ id: i, name: `Branch ${i}`, soh: i }),
    );
    const first = card({ bom: big, kits, branches }, { part: 'bom' });
    expect(checkMessageLimits(first)).toEqual([]);
    expect(allText(first)).toContain('*Bill of materials* · 1–5 of 85');
    expect(allText(first)).not.toMatch(/not shown/);
    const expand = buttons(first).filter((b) => b.label.includes('Expand'));
    expect(expand.map((b) => b.label)).toEqual(
      Array.from({ length: 3 }, (_, i) => `Expand PART-${i * 2}`),
    );
    const next = buttons(first).find((b) => b.label === 'Next components ›');
    // The page button keeps the card as it is (the bill of materials) and asks for page 2.
    expect(next?.state).toMatchObject({ t: 'i', r: { c: 'WIDGET-9' }, m: 'b', bp: 1 });
    expect(buttons(first).some((b) => b.label.includes('Previous components'))).toBe(false);

    const last = card({ bom: big, kits, branches }, { part: 'bom', bomPage: 16 });
    expect(checkMessageLimits(last)).toEqual([]);
    expect(allText(last)).toContain('*Bill of materials* · 81–85 of 85');
    expect(buttons(last).map((b) => b.label)).toContain('‹ Previous components');
    expect(buttons(last).some((b) => b.label.includes('Next components'))).toBe(false);
    // A page past the end shows the last one.
    expect(allText(card({ bom: big }, { part: 'bom', bomPage: 99 }))).toContain('81–85');
  });

  it('offers no BOM paging or Expand on a shared card', () => {
    const big = Array.from({ length: 30 }, (_, i) =>
      makeBomComponent({ inventoryId: i, code: `PART-${i}`, has_bom: true }),
    );
    const labels = buttons(card({ bom: big }, { shared: true, part: 'bom' })).map((b) => b.label);
    expect(labels).toEqual(['View']);
  });
});

describe('itemCard: kits', () => {
  it('groups kits by group name, unnamed last as Other, pre-selected marked', () => {
    const kits = [
      makeKit({ code: 'CABLE-2', description: 'Cable', groupname: '' }),
      makeKit({ code: 'MOUNT-1', description: 'Wall mount', groupname: 'Mounts', auto: true }),
      makeKit({ code: 'MOUNT-2', description: 'Desk mount', groupname: 'Mounts', qty: 2 }),
    ];
    expect(button(card({ kits }), 'Kits (3)').state).toMatchObject({ m: 'k' });
    const section = card({ kits }, { part: 'kits' }).blocks.find(
      (b) => b.type === 'section' && b.text?.text.startsWith('*Sold with it*'),
    );
    expect(section?.type === 'section' && section.text?.text.split('\n')).toEqual([
      '*Sold with it* (kit suggestions)',
      '*Mounts*',
      '• `MOUNT-1` Wall mount · qty 1 · :white_check_mark: _pre-selected_',
      '• `MOUNT-2` Desk mount · qty 2',
      '*Other*',
      '• `CABLE-2` Cable · qty 1',
    ]);
  });
});

describe('itemCard: footer and buttons', () => {
  it('says when and whether from cache', () => {
    const message = itemCard({
      item: makeItem(),
      freshness: makeFreshness({ fromCache: true }),
      now: TEST_NOW,
    });
    const footer = blocksOfType(message, 'context').at(-1);
    expect(footer?.elements).toEqual([
      {
        type: 'mrkdwn',
        text: 'Fetched <!date^1772448120^{ago}|2 Mar 2026 at 10:42 UTC> · from cache',
        verbatim: true,
      },
    ]);
  });

  it('says clearly when the data is stale', () => {
    const fetchedAt = new Date(TEST_NOW.getTime() - 12 * 60_000);
    const message = itemCard({
      item: makeItem(),
      freshness: makeFreshness({ fetchedAt, stale: true }),
      now: TEST_NOW,
    });
    // The first line, before any figure: in blocks a date token, in the fallback relative.
    expect(JSON.stringify(message.blocks?.[0])).toContain(
      ':warning: *ERP unreachable*: figures as of <!date^1772447580^{date_short_pretty} at {time}|2 Mar 2026 at 10:33 UTC>',
    );
    expect(message.text).toMatch(/^ERP unreachable: figures as of 12 min ago\. WIDGET-9: /);
    // No footer repeats it.
    expect(allText(message)).not.toContain('data from');
  });

  it('says it first on a verdict too, and a busy budget as such', () => {
    const fetchedAt = new Date(TEST_NOW.getTime() - 12 * 60_000);
    const message = itemCard({
      item: makeItem(),
      freshness: makeFreshness({ fetchedAt, stale: true, staleBecause: 'busy' }),
      now: TEST_NOW,
      question: { quantity: 5, branchWords: [] },
      verdict: stockVerdict(makeItem(), { quantity: 5, branchWords: [] }),
    });
    expect(JSON.stringify(message.blocks?.[0])).toContain('Lots of lookups right now');
    expect(JSON.stringify(message.blocks?.[1])).toMatch(/\*(Yes|No):\*/);
    expect(message.text).toMatch(/^Lots of lookups right now: figures as of 12 min ago\. (Yes|No)/);
  });

  it('has Refresh and Share to channel carrying the card state', () => {
    const message = card({}, { path: ['TOP'] });
    expect(button(message, 'Refresh')).toMatchObject({
      actionId: ACTION.itemRefresh,
      state: { r: { c: 'WIDGET-9' }, p: ['TOP'] },
    });
    expect(button(message, 'Share to channel').actionId).toBe(ACTION.itemShare);
  });

  it('offers Watch… after Share, carrying the item and the channel the card was asked in', () => {
    const message = card({}, { channelId: 'C0SALES01' });
    expect(buttons(message).map((b) => b.label)).toEqual([
      'All branches (3)',
      'Refresh',
      'Share to channel',
      'Watch…',
    ]);
    expect(button(message, 'Watch…')).toMatchObject({
      actionId: WATCH_ACTION.open,
      state: { v: 1, t: 'wo', c: 'WIDGET-9', ch: 'C0SALES01' },
    });
    // Asked where Slack named no channel (App Home): the modal defaults to the current one.
    expect(button(card({}), 'Watch…').state).toEqual({ v: 1, t: 'wo', c: 'WIDGET-9' });
  });

  it('when shared: only a View button, no Share, Refresh or Expand', () => {
    const message = card({ bom: [makeBomComponent({ has_bom: true })] }, { shared: true });
    expect(buttons(message).map((b) => [b.label, b.actionId])).toEqual([['View', ACTION.itemView]]);
  });

  it('refers to an item by id when its code cannot ride in a button', () => {
    const message = card({ code: 'X'.repeat(150), id: 77 });
    expect(button(message, 'Refresh').state).toMatchObject({ r: { i: 77 } });
    expect(checkMessageLimits(message)).toEqual([]);
  });
});

describe('itemCard: what a shared card may show, and where the user is', () => {
  const bom = [makeBomComponent({ code: 'PART-1', cost: 3.25, has_bom: true })];

  it('hides the item and component costs on a shared card unless shareCost', () => {
    expect(allText(card({ cost: 12.5, bom }))).toContain('Cost (internal) 12.50');
    expect(allText(card({ cost: 12.5, bom }, { part: 'bom' }))).toContain('cost 3.25');
    const shared = allText(card({ cost: 12.5, bom }, { shared: true }));
    expect(shared).not.toMatch(/cost|12\.50|3\.25/i);
    const sharedBom = allText(card({ cost: 12.5, bom }, { shared: true, part: 'bom' }));
    expect(sharedBom).toContain('PART-1');
    expect(sharedBom).not.toMatch(/cost|12\.50|3\.25/i);
    const allowed = allText(card({ cost: 12.5, bom }, { shared: true, shareCost: true }));
    expect(allowed).toContain('Cost (internal) 12.50');
  });

  it('says "Sandbox data" in the footer when the ERP is the sandbox', () => {
    expect(allText(card({}, { sandbox: true }))).toContain('*Sandbox data*');
    expect(allText(card())).not.toContain('Sandbox data');
  });

  it('pages all branches 20 at a time and clamps a page past the end', () => {
    const branches = Array.from({ length: 45 }, (_, i) => makeBranch({ id: i, name: `B${i}` }));
    const last = card({ branches }, { branchView: 'all', branchPage: 99 });
    expect(allText(last)).toContain('all 45 · 41–45 (page 3 of 3)');
    expect(button(last, 'Previous branches').state).toMatchObject({ m: 'a', br: 1 });
    expect(buttons(last).some((b) => b.label.includes('Next branches'))).toBe(false);
    // Refresh and Share carry the page in view.
    expect(button(last, 'Refresh').state).toMatchObject({ m: 'a', br: 2 });
    expect(button(last, 'Share to channel').state).toMatchObject({ m: 'a', br: 2 });
    expect(button(last, 'Back').state).not.toHaveProperty('br');
    expect(checkMessageLimits(last)).toEqual([]);
  });

  it('carries the BOM page down an Expand and back up with "Up to"', () => {
    const many = Array.from({ length: 45 }, (_, i) =>
      makeBomComponent({ inventoryId: i, code: `PART-${i}`, has_bom: true }),
    );
    const page3 = card({ bom: many }, { part: 'bom', bomPage: 2 });
    const expand = button(page3, 'Expand PART-10');
    expect(expand.state).toMatchObject({ r: { c: 'PART-10' }, p: ['WIDGET-9'], pg: [2] });
    const child = itemCard({
      item: makeItem({ code: 'PART-10' }),
      freshness: makeFreshness(),
      now: TEST_NOW,
      path: ['WIDGET-9'],
      pathPages: [2],
      part: 'bom',
    });
    expect(button(child, 'Up to WIDGET-9').state).toEqual({
      v: 1,
      t: 'i',
      r: { c: 'WIDGET-9' },
      m: 'b',
      bp: 2,
    });
  });
});

describe('superseded items', () => {
  it('offers the replacement named in the description as a View button', async () => {
    const { supersededBy } = await import('../../src/views/itemCard.js');
    expect(
      supersededBy({
        code: 'WIDGET-9-OLD',
        description: 'Blue Widget 9mm (superseded by WIDGET-9)',
      }),
    ).toBe('WIDGET-9');
    expect(supersededBy({ code: 'A-1', description: 'Replaced by B-2.' })).toBe('B-2');
    expect(supersededBy({ code: 'A-1', description: 'superseded by a-1' })).toBeUndefined();
    expect(supersededBy({ code: 'A-1', description: 'a plain widget' })).toBeUndefined();
    expect(
      supersededBy({ code: 'A-1', description: `superseded by ${'-'.repeat(40_000)}` }),
    ).toBeUndefined();
  });
});
