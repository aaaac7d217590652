import { describe, expect, it } from 'vitest';
import { itemCard } from '../../src/views/itemCard.js';
import { stopCreditHidden, stopCreditLine, withLeadLine } from '../../src/views/stopCredit.js';
import { makeFreshness, makeItem, TEST_NOW } from '../helpers/builders.js';

describe('the first line asked for', () => {
  it('says Yes or No on stop credit, before the rest of the message', () => {
    const base = { text: 'Acme (ACME01)', blocks: [] };
    const no = withLeadLine(base, stopCreditLine({ code: 'ACME01', stopcred: 0 }));
    expect(no.text).toMatch(/^ACME01 is not on stop credit\. Acme/);
    expect(JSON.stringify(no.blocks[0])).toContain('`ACME01` is not on stop credit');
    const yes = stopCreditLine({ code: 'ACMEWH01', stopcred: 1 });
    expect(yes.text).toBe('ACMEWH01 is on stop credit: check before shipping.');
    expect(stopCreditHidden('ACME01').text).toContain('account term you cannot see');
  });

  it('leads the item card with the sell price, or says the ERP gave none', () => {
    const model = { item: makeItem(), freshness: makeFreshness(), now: TEST_NOW, priceFirst: true };
    const priced = itemCard({ ...model, price: 12.5 });
    expect(JSON.stringify(priced.blocks[0])).toMatch(/`WIDGET-9`\* sells for \*12\.50\*/);
    expect(priced.text).toMatch(/^WIDGET-9 sells for 12\.50; WIDGET-9: /);
    const none = itemCard(model);
    expect(none.text).toMatch(/^The ERP gave no sell price for WIDGET-9/);
  });
});
