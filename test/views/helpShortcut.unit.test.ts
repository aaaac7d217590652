import { describe, expect, it } from 'vitest';
import { ServerError, UnavailableError } from '../../src/erp/errors.js';
import { ACTION } from '../../src/views/actions.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { commandRetry } from '../../src/views/feedback.js';
import { contactHelp, stockHelp } from '../../src/views/help.js';
import { shortcutResults } from '../../src/views/shortcut.js';
import { makeBranch, makeFreshness, makeItem, TEST_NOW } from '../helpers/builders.js';
import { allText, buttons } from './inspect.js';

describe('help', () => {
  it('/stock help shows the grammar, with placeholders when no ERP examples are known', () => {
    const text = allText(stockHelp());
    expect(text).not.toContain('WIDGET-9');
    expect(text).not.toContain('More to try');
    for (const expected of [
      '`/stock [item code]`',
      '`/stock [item code] 50 [branch]`',
      '`/stock [item code] [branch]`',
      '`/stock [item code], [item code]`',
      '`/stock categories`',
      '`/stock watch [item code] below 20 [at branch]`',
      '`/stock watches`',
      '`/stock unwatch [item code] [at branch]`',
      '`/stock digest on 08:00 [zone] [demand]`',
      'Bill of materials',
      '`/stock id:123`',
      '`#123`',
      '`/stock [words]`',
      '`/stock suppliers`',
      'category:N',
      'supplier:N',
      '`/stock help`',
      'Look up stock',
    ]) {
      expect(text).toContain(expected);
    }
    expect(checkMessageLimits(stockHelp())).toEqual([]);
  });

  it('uses sandbox examples when given, escaped', () => {
    const examples = {
      itemCodes: ['BOLT-<7>'],
      itemSearches: ['steel bolt'],
      contactCodes: ['ZETA`9'],
      contactSearches: ['zeta'],
    };
    expect(allText(stockHelp(examples))).toContain('`/stock BOLT-&lt;7&gt;`');
    expect(allText(contactHelp(examples))).toContain('`/contact ZETAˋ9`');
    expect(allText(contactHelp(examples))).toContain('`/contact zeta type:client`');
  });

  it('/contact help names the type filters and the reveal rule', () => {
    const text = allText(contactHelp());
    for (const expected of [
      'type:client',
      'customer',
      'type:supplier',
      'Reveal details',
      '`/contact [company or person]`',
      '`/contact [account code] [role or name]`',
    ]) {
      expect(text).toContain(expected);
    }
  });
});

describe('shortcutResults', () => {
  const item = makeItem({
    branches: [
      makeBranch({ id: 1, name: 'Perth', soh: 3, allocated: 0 }),
      makeBranch({ id: 2, name: 'Sydney', soh: 30, allocated: 0 }),
      makeBranch({ id: 3, name: 'Hobart', soh: 0, allocated: 0 }),
      makeBranch({ id: 4, name: 'Darwin', soh: 9, allocated: 0 }),
      makeBranch({ id: 5, name: 'Cairns', soh: 1, allocated: 0 }),
    ],
  });

  it('has one line per item with its best branches and a View button', () => {
    const message = shortcutResults({
      found: [{ item, freshness: makeFreshness() }],
      notFound: ['NOPE-1', '<!channel>'],
      failed: [{ code: 'W-2', error: new ServerError('secret', { endpoint: 'getItem' }) }],
      now: TEST_NOW,
    });
    expect(message.blocks[0]).toMatchObject({
      type: 'section',
      text: {
        text: '`WIDGET-9` Blue widget assembly\n*43* available · best: Sydney 30, Darwin 9, Perth 3',
      },
      accessory: { type: 'button', action_id: `${ACTION.itemView}:0` },
    });
    expect(allText(message)).toContain(':grey_question: *Not found:* `NOPE-1`, `&lt;!channel&gt;`');
    expect(allText(message)).toContain('`W-2`: The ERP is not answering; try again in a minute.');
    expect(allText(message)).not.toContain('secret');
    expect(buttons(message).map((b) => b.state)).toEqual([{ v: 1, t: 'i', r: { c: 'WIDGET-9' } }]);
    expect(message.text).toBe(
      'WIDGET-9: 43 available; not found: NOPE-1, &lt;!channel&gt;; 1 code could not be looked up',
    );
    expect(checkMessageLimits(message)).toEqual([]);
  });

  it('marks stale answers and says when nothing was found', () => {
    const stale = shortcutResults({
      found: [{ item, freshness: makeFreshness({ stale: true }) }],
      notFound: [],
      failed: [],
      now: TEST_NOW,
    });
    expect(allText(stale)).toContain(
      ':warning: _ERP unreachable; data fetched <!date^1772448120^{date_short_pretty} at {time} ({ago})|2 Mar 2026 at 10:42 UTC>_',
    );
    const none = shortcutResults({ found: [], notFound: [], failed: [], now: TEST_NOW });
    expect(none.text).toBe('No item codes found in that message.');
  });
});

describe('shortcutResults: codes past the ones looked up', () => {
  it('names them ("+2 more, not looked up: …") instead of dropping them', () => {
    const message = shortcutResults({
      found: [],
      notFound: ['NOPE-1'],
      failed: [],
      notLookedUp: ['PUMP-220', 'BOLT-1'],
      source: 'command',
      now: TEST_NOW,
    });
    const text = allText(message);
    expect(text).toContain('+2 more, not looked up: `PUMP-220`, `BOLT-1`');
    expect(text).toContain('Several codes, one line each');
    expect(message.text).toContain('+2 more not looked up');
    expect(checkMessageLimits(message)).toEqual([]);
  });
});

describe('shortcutResults: a lookup that failed in a way that may pass', () => {
  it('offers Try again asking the same codes; none when every failure is about the code', () => {
    const retry = commandRetry('stock', 'WIDGET-9, PUMP-220');
    const down = shortcutResults({
      found: [],
      notFound: [],
      failed: [
        { code: 'PUMP-220', error: new ServerError('x', { endpoint: 'getItem', statusCode: 503 }) },
      ],
      retry,
      now: TEST_NOW,
    });
    expect(checkMessageLimits(down)).toEqual([]);
    expect(buttons(down).map((b) => [b.label, b.state])).toEqual([
      ['Try again', { v: 1, t: 'rc', f: 'stock', x: 'WIDGET-9, PUMP-220' }],
    ]);
    const refused = shortcutResults({
      found: [],
      notFound: [],
      failed: [
        {
          code: 'X',
          error: new UnavailableError('x', { endpoint: 'getItem', reason: 'too_large' }),
        },
      ],
      retry,
      now: TEST_NOW,
    });
    expect(buttons(refused)).toEqual([]);
  });
});
