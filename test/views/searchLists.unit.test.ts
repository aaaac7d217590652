import { describe, expect, it } from 'vitest';
import { ACTION } from '../../src/views/actions.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { contactSearchList, itemSearchList } from '../../src/views/searchLists.js';
import {
  makeContactRow,
  makeFreshness,
  makeItemRow,
  makePage,
  TEST_NOW,
} from '../helpers/builders.js';
import { allText, button, buttons } from './inspect.js';

const base = { freshness: makeFreshness(), now: TEST_NOW };

describe('itemSearchList', () => {
  const rows = Array.from({ length: 10 }, (_, i) => makeItemRow({ id: i, code: `W-${i}` }));

  it('has the query and filters on top and one row per result with a View button', () => {
    const message = itemSearchList({
      ...base,
      query: { words: ['blue', 'widget'], category: 3 },
      page: makePage(rows, { offset: 10, hasPrevious: true, hasNext: true }),
    });
    expect(message.blocks[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*Items matching* “blue widget” · category 3 · 11–20',
        verbatim: true,
      },
    });
    expect(message.blocks[1]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '`W-0` Blue widget assembly\n*42* available · 52 on hand · 20 on order · sell price 24.95 · Widgets · Acme Supplies',
        verbatim: true,
      },
      accessory: expect.objectContaining({ type: 'button', action_id: `${ACTION.itemView}:0` }),
    });
    const views = buttons(message).filter((b) => b.label === 'View');
    expect(views.map((b) => b.actionId)).toEqual(rows.map((_, i) => `${ACTION.itemView}:${i}`));
    expect(views[3]?.state).toEqual({ v: 1, t: 'i', r: { c: 'W-3' } });
    expect(checkMessageLimits(message)).toEqual([]);
  });

  it('pages with Previous and Next carrying the search state and offsets', () => {
    const message = itemSearchList({
      ...base,
      query: { words: ['blue'], supplier: 7 },
      page: makePage(rows, { offset: 10, hasPrevious: true, hasNext: true, total: 57 }),
    });
    expect(button(message, 'Previous')).toMatchObject({
      label: '‹ Previous',
      actionId: ACTION.itemPrevPage,
      state: { v: 1, t: 'is', w: ['blue'], sup: 7, o: 0 },
    });
    expect(button(message, 'Next')).toMatchObject({
      label: 'Next ›',
      actionId: ACTION.itemNextPage,
      state: { o: 20 },
    });
    expect(allText(message)).toContain('11–20 of 57');
  });

  it('flags disabled and over-allocated rows', () => {
    const row = makeItemRow({ status_label: 'Disabled', available: -4, onorder: 0 });
    const message = itemSearchList({ ...base, query: { words: ['w'] }, page: makePage([row]) });
    expect(message.blocks[1]).toMatchObject({
      text: {
        text: '`WIDGET-9` Blue widget assembly · :no_entry: *Disabled*\n:warning: *-4* available, over-allocated · 52 on hand · sell price 24.95 · Widgets · Acme Supplies',
      },
    });
  });

  it('has no paging buttons on a single page', () => {
    const message = itemSearchList({
      ...base,
      query: { words: ['x'] },
      page: makePage(rows.slice(0, 3)),
    });
    expect(buttons(message).map((b) => b.label)).toEqual(['View', 'View', 'View']);
  });

  it('says clearly when nothing matches, with a hint', () => {
    const message = itemSearchList({ ...base, query: { words: ['zzz'] }, page: makePage([]) });
    expect(message.blocks[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*No items match* “zzz”.\nTry fewer words or a part of the code: every word must match the code or description.',
        verbatim: true,
      },
    });
    expect(message.text).toBe('No items match “zzz”.');
  });

  it('puts the not-found notice first, escaped', () => {
    const message = itemSearchList({
      ...base,
      query: { words: ['W<!here>'] },
      page: makePage(rows.slice(0, 2)),
      notice: 'No item has the code W<!here>. Closest matches:',
    });
    expect(message.blocks[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: ':mag: No item has the code W&lt;!here&gt;. Closest matches:',
        verbatim: true,
      },
    });
    expect(message.text).not.toContain('<!here>');
  });
});

describe('contactSearchList', () => {
  it('lists redacted rows with a View button each, and the type filter', () => {
    const rows = [
      makeContactRow({
        telephone: '02 9000 1234',
        email: 'accounts@acme.com.au',
        status_label: 'Suspended',
        salesperson: null,
      }),
      makeContactRow({
        clientid: 43,
        code: 'BETA',
        company: 'Beta & Co',
        telephone: '',
        email: '',
      }),
    ];
    const message = contactSearchList({
      ...base,
      query: { words: ['acme'], type: 'supplier' },
      page: makePage(rows),
    });
    const text = allText(message);
    expect(text).not.toContain('02 9000 1234');
    expect(text).not.toContain('accounts@acme.com.au');
    expect(message.blocks[0]).toMatchObject({
      text: { text: '*Contacts matching* “acme” · suppliers · 1–2 of 2' },
    });
    expect(message.blocks[1]).toMatchObject({
      text: {
        text: '*Acme Pty Ltd* · `ACME01` · Customer · :no_entry: *Suspended*\nSydney, NSW · Salesperson _unassigned_ · 3 people · :telephone_receiver: •••• ••• 234 · :email: a•••@acme.com.au',
      },
    });
    expect(text).toContain('*Beta &amp; Co*');
    expect(buttons(message).map((b) => [b.actionId, b.state])).toEqual([
      [`${ACTION.contactView}:0`, { v: 1, t: 'c', r: { c: 'ACME01' } }],
      [`${ACTION.contactView}:1`, { v: 1, t: 'c', r: { c: 'BETA' } }],
    ]);
  });

  it('pages with the contact search state', () => {
    const rows = Array.from({ length: 10 }, (_, i) =>
      makeContactRow({ clientid: i, code: `C${i}` }),
    );
    const message = contactSearchList({
      ...base,
      query: { words: ['a'], type: 'client' },
      page: makePage(rows, { offset: 0, hasNext: true }),
    });
    expect(button(message, 'Next')).toMatchObject({
      actionId: ACTION.contactNextPage,
      state: { v: 1, t: 'cs', w: ['a'], ty: 'client', o: 10 },
    });
  });
});

describe('contactSearchList found by a person', () => {
  it('says who matched on that row only, escaped, and View carries the words', () => {
    const rows = [
      makeContactRow({ clientid: 1, code: 'ACME01', company: 'Acme' }),
      makeContactRow({ clientid: 2, code: 'SMITH01', company: 'Smith Ltd' }),
    ];
    const people = new Map([
      [
        'ACME01',
        [
          { name: '<!channel> John Smith', role: 'Accounts *Payable*' },
          { name: 'Johnny Smithers', role: '' },
        ],
      ],
    ]);
    const message = contactSearchList({
      ...base,
      query: { words: ['john', 'smith'] },
      page: makePage(rows),
      people,
    });
    expect(checkMessageLimits(message)).toEqual([]);
    const text = allText(message);
    expect(text).toContain(
      ':bust_in_silhouette: Matches *&lt;!channel&gt; John Smith* (Accounts *Payable*) +1 more',
    );
    expect(text.match(/Matches/g)).toHaveLength(1);
    const views = buttons(message).filter((b) => b.label === 'View');
    expect(views[0]?.state).toMatchObject({ r: { c: 'ACME01' }, pf: ['john', 'smith'] });
    expect(views[1]?.state).not.toHaveProperty('pf');
  });
});

describe('contactSearchList rows past the ones whose people were looked up', () => {
  it('say they were found by a person or the trading name, naming nobody; View carries the words', () => {
    const rows = [
      makeContactRow({ clientid: 1, code: 'ACME01', company: 'Acme' }),
      makeContactRow({ clientid: 2, code: 'BETA01', company: 'Beta' }),
      makeContactRow({ clientid: 3, code: 'GAMMA01', company: 'Gamma' }),
    ];
    const message = contactSearchList({
      ...base,
      query: { words: ['victoria'] },
      page: makePage(rows),
      people: new Map([['ACME01', [{ name: 'Victoria Hermiston', role: 'Receptionist' }]]]),
      notLookedUp: new Set(['BETA01']),
    });
    expect(checkMessageLimits(message)).toEqual([]);
    const [, acme, beta, gamma] = message.blocks.map((block) =>
      block.type === 'section' ? (block.text?.text ?? '') : '',
    );
    expect(acme).toContain(':bust_in_silhouette: Matches *Victoria Hermiston* (Receptionist)');
    expect(beta).toContain(':bust_in_silhouette: Matched by a person or trading name');
    expect(gamma).not.toContain(':bust_in_silhouette:');
    const views = buttons(message).filter((b) => b.label === 'View');
    expect(views.map((b) => b.state)).toEqual([
      expect.objectContaining({ r: { c: 'ACME01' }, pf: ['victoria'] }),
      expect.objectContaining({ r: { c: 'BETA01' }, pf: ['victoria'] }),
      expect.not.objectContaining({ pf: expect.anything() }),
    ]);
  });
});

describe('did you mean, for a question asked of a code that does not exist', () => {
  it('each suggested code asks the same quantity and branch, within the limits', () => {
    const long = 'x'.repeat(40);
    const message = itemSearchList({
      ...base,
      query: { words: ['WIDGT-9', '50', 'perth'] },
      page: makePage([]),
      fromCode: true,
      suggestions: ['WIDGET-9', 'WIDGET-90'],
      suggestionQuestion: { quantity: 50, branchWords: ['perth', long] },
    });
    expect(checkMessageLimits(message)).toEqual([]);
    const asked = buttons(message).filter((b) => b.label.startsWith('WIDGET-9'));
    expect(asked.map((b) => b.state)).toEqual([
      expect.objectContaining({ r: { c: 'WIDGET-9' }, q: 50, b: ['perth', long] }),
      expect.objectContaining({ r: { c: 'WIDGET-90' }, q: 50, b: ['perth', long] }),
    ]);
    // Without a question, a plain View as before.
    const plain = itemSearchList({
      ...base,
      query: { words: ['WIDGT-9'] },
      page: makePage([]),
      fromCode: true,
      suggestions: ['WIDGET-9'],
    });
    expect(buttons(plain).map((b) => b.label)).toContain('View WIDGET-9');
  });
});
