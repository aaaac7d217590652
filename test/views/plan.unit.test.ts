/**
 * The plan after a No on the verdict card: at most three one-line options under the verdict,
 * each with a View button whose state asks that option as a verdict card of its own; the
 * chosen option's card; all within one phone screen and Slack's limits.
 */
import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/erp/schemas.js';
import { stockVerdict, type VerdictQuestion } from '../../src/rules/stock.js';
import { type CardQuestion, decodeState, questionOf } from '../../src/views/actions.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { itemCard } from '../../src/views/itemCard.js';
import { buttonsOf } from '../helpers/blocks.js';
import { makeBranch, makeFreshness, makeItem, TEST_NOW } from '../helpers/builders.js';
import { PHONE_SCREEN, phoneFit } from '../helpers/phoneLines.js';
import { items, itemsByCode } from './helpers/sweepData.js';

const base = { freshness: makeFreshness(), now: TEST_NOW, sandbox: true, internalFigures: true };

function card(item: Item, question: CardQuestion, extra: Record<string, unknown> = {}) {
  return itemCard({ ...base, item, question, verdict: stockVerdict(item, question), ...extra });
}

const widget = makeItem({
  code: 'WIDGET-9',
  onorder: 120,
  branches: [
    makeBranch({ id: 1, name: 'Sydney', soh: 40, allocated: 3, onorder: 20 }),
    makeBranch({ id: 2, name: 'Brisbane', soh: 7, allocated: 0, onorder: 0 }),
    makeBranch({ id: 3, name: 'Perth Airport', soh: 60, allocated: 0, onorder: 100 }),
  ],
});

const optionButtons = (message: { blocks?: unknown }) =>
  buttonsOf(message).filter((b) => /^stock_view:8\d$/.test(b.action_id));

const stateOf = (value: string | undefined) => {
  const decoded = decodeState(value);
  if (!decoded.ok || decoded.state.t !== 'i') throw new Error('not an item card state');
  return decoded.state;
};

describe('options under a No', () => {
  it('one line each, a View button each, whose state asks that option as a verdict', () => {
    const message = card(widget, { quantity: 45, branchWords: ['sydney'] });
    const lines = phoneFit(message).lines;
    expect(lines.filter((l) => l.startsWith('• '))).toEqual([
      '• Perth Airport has all 45: 60 free',
      '• Split: 37 Sydney + 8 Perth Airpo…',
      '• 37 now; 20 on order, no date',
    ]);
    const buttons = optionButtons(message);
    expect(buttons.map((b) => b.text)).toEqual(['View', 'View', 'View']);
    expect(buttons[0]?.accessibility_label).toBe('View: Perth Airport has all 45: 60 free');
    const [whole, split, later] = buttons.map((b) => questionOf(stateOf(b.value)));
    expect(whole).toEqual({ quantity: 45, branchWords: ['Perth', 'Airport'] });
    expect(split).toEqual({ quantity: 45, branchWords: ['sydney'], option: 'split' });
    expect(later).toEqual({ quantity: 45, branchWords: ['sydney'], option: 'later' });
    expect(message.text).toContain('Options: Perth Airport has all 45: 60 free; Split: 37 Sydney');
    expect(checkMessageLimits(message)).toEqual([]);
  });

  it('the branch option answers as that branch’s Yes', () => {
    const message = card(widget, { quantity: 45, branchWords: ['Perth', 'Airport'] });
    expect(phoneFit(message).top).toMatch(/^██ Yes: Perth Airport has 60 free/);
    expect(optionButtons(message)).toEqual([]);
  });

  it('the split option answers as a Yes that says the split and what each branch holds', () => {
    const message = card(widget, { quantity: 45, branchWords: ['sydney'], option: 'split' });
    const fit = phoneFit(message);
    expect(fit.top).toBe('██ Yes, as a split: 37 Sydney + 8 Perth\nAirpo…');
    expect(fit.lines[2]).toBe('Sydney has 37 free · Perth Airport has');
    expect(message.text).toMatch(
      /^Yes, as a split: 37 Sydney \+ 8 Perth Airpo… \(45 of WIDGET-9\)/,
    );
    expect(optionButtons(message)).toEqual([]);
  });

  it('the later option never counts what is on order', () => {
    const message = card(widget, { quantity: 45, branchWords: ['sydney'], option: 'later' });
    expect(phoneFit(message).top).toBe(
      '██ Part now: 37 of 45; 8 more when stock\non order arrives',
    );
    expect(message.text).toContain('20 on order with no date: not counted as available.');
  });

  it('an option the fresh figures no longer offer: the plain verdict and its plan', () => {
    const message = card(widget, { quantity: 10, branchWords: ['sydney'], option: 'split' });
    expect(phoneFit(message).top).toMatch(/^██ Yes: Sydney has 37 free/);
  });

  it('a shared card carries the options without their buttons', () => {
    const message = card(widget, { quantity: 45, branchWords: ['sydney'] }, { shared: true });
    expect(phoneFit(message).lines).toContain('• Perth Airport has all 45: 60 free');
    expect(optionButtons(message)).toEqual([]);
  });
});

describe('every sandbox verdict with a plan fits one phone screen', () => {
  const questions: VerdictQuestion[] = [
    { quantity: 40, branchWords: ['sydney'] },
    { quantity: 40 },
    { quantity: 60 },
    { quantity: 200, branchWords: ['perth'] },
    { quantity: 1000 },
  ];
  const sample = [
    ...items.filter((_, n) => n % 40 === 0),
    itemsByCode.get('WIDGET-9'),
    itemsByCode.get('PLANT-88'),
  ].filter((i): i is Item => i !== undefined);

  it('at most three options, each one line, within 20 lines and Slack’s limits', () => {
    const over: string[] = [];
    for (const item of sample) {
      for (const question of questions) {
        for (const option of [undefined, 'split', 'later'] as const) {
          const message = card(item, { ...question, ...(option ? { option } : {}) });
          const fit = phoneFit(message);
          const options = fit.lines.filter((l) => l.startsWith('• '));
          if (fit.count > PHONE_SCREEN || options.length > 3 || checkMessageLimits(message).length)
            over.push(`${item.code} ${JSON.stringify(question)} ${option}: ${fit.count}`);
        }
      }
    }
    expect(over).toEqual([]);
  });
});
