/**
 * The words of the tools Slack's agent calls: what a shared message may show, whoever asks.
 * A language model reads them, so no phone, e-mail, cost or account term gets in, even
 * typed into a field that should hold none.
 */
import { describe, expect, it } from 'vitest';
import { stockVerdict } from '../../src/rules/stock.js';
import {
  contactToolText,
  itemsToolText,
  stockToolText,
  unknownBranchToolText,
  watchesToolText,
} from '../../src/views/tools.js';
import {
  makeAddressbookEntry,
  makeBranch,
  makeContact,
  makeFreshness,
  makeItem,
  makeItemRow,
  makeWatchSummary,
  TEST_NOW,
} from '../helpers/builders.js';

const NOW = TEST_NOW;

describe('stockToolText', () => {
  const item = makeItem({
    code: 'WIDGET-9',
    description: 'Blue widget',
    cost: 12.5,
    branches: [
      makeBranch({ id: 1, name: 'Perth', soh: 10, allocated: 0, onorder: 0 }),
      makeBranch({ id: 2, name: 'Sydney', soh: 80, allocated: 0, onorder: 0 }),
      makeBranch({ id: 3, name: 'Brisbane', soh: 60, allocated: 0, onorder: 0 }),
    ],
  });

  it('leads with the verdict sentence and lists every branch that could cover it', () => {
    const verdict = stockVerdict(item, { quantity: 50, branchWords: ['perth'] });
    const text = stockToolText({ verdict, freshness: makeFreshness(), now: NOW });
    const [first, , cover] = text.split('\n');
    expect(first).toMatch(/^No, 50 of WIDGET-9 at Perth: Perth has 10 free/);
    expect(cover).toBe('Branches that could cover it alone: Sydney (80 free), Brisbane (60 free).');
    expect(text).not.toMatch(/12\.5|cost/i);
  });

  it('says how old the figures are when the ERP was away', () => {
    const verdict = stockVerdict(item, { quantity: 5 });
    const text = stockToolText({
      verdict,
      freshness: makeFreshness({ stale: true, fromCache: true, staleBecause: 'busy' }),
      now: NOW,
    });
    expect(text.split('\n')[0]).toMatch(/showing data fetched/);
  });

  it('names the branches when the words name none', () => {
    expect(unknownBranchToolText('WIDGET-9', 'atlantis', ['Perth', 'Sydney'])).toMatch(
      /“atlantis” is not a branch of WIDGET-9 \(its branches: Perth, Sydney\)/,
    );
  });
});

describe('contactToolText', () => {
  const contact = makeContact({
    code: 'ACME01',
    company: 'Acme Pty Ltd',
    salesperson: 'Sam Sales',
    telephone: '08 9000 1234',
    email: 'office@acme.example',
    terms: '30 days',
    climit: 5000,
    stopcred: 1,
    addressbook: [
      makeAddressbookEntry({
        name: 'Jane Citizen',
        role: 'Accounts, call 0412 345 678',
        department: 'jane@acme.example',
        telephone: '08 9000 5555',
        email: 'jane.c@acme.example',
      }),
    ],
  });

  it('gives the account, salesperson, names and roles, and never a way to reach anyone', () => {
    const text = contactToolText({
      contact,
      freshness: makeFreshness(),
      now: NOW,
      roleWords: [],
      people: contact.addressbook,
      showStopCredit: false,
    });
    expect(text).toContain('Acme Pty Ltd (ACME01)');
    expect(text).toContain('Salesperson: Sam Sales.');
    expect(text).toContain('Jane Citizen');
    expect(text).toContain('Accounts');
    for (const hidden of ['0412', '9000', '@', '30 days', '5000', 'stop credit']) {
      expect(text.toLowerCase()).not.toContain(hidden.toLowerCase());
    }
  });

  it('shows stop credit only where a shared card may (SHARE_ACCOUNT_TERMS)', () => {
    const text = contactToolText({
      contact,
      freshness: makeFreshness(),
      now: NOW,
      roleWords: [],
      people: [],
      showStopCredit: true,
    });
    expect(text).toContain('On stop credit.');
  });

  it('says when nobody matches the role, never offering someone else', () => {
    const text = contactToolText({
      contact,
      freshness: makeFreshness(),
      now: NOW,
      roleWords: ['warehouse'],
      people: [],
      showStopCredit: false,
    });
    expect(text).toContain('Nobody at Acme Pty Ltd matches “warehouse”.');
    expect(text).not.toContain('Jane');
  });
});

describe('itemsToolText and watchesToolText', () => {
  it('lists codes with description and what is available (over-allocation as 0)', () => {
    const text = itemsToolText({
      words: ['widget'],
      rows: [
        makeItemRow({ code: 'WIDGET-9', description: 'Blue widget', available: 42 }),
        makeItemRow({ code: 'WIDGET-8', description: 'Red widget', available: -3 }),
      ],
      more: false,
      freshness: makeFreshness(),
      now: NOW,
      fromIndex: false,
    });
    expect(text).toContain('- WIDGET-9: Blue widget; 42 available');
    expect(text).toContain('- WIDGET-8: Red widget; 0 available');
  });

  it('lists the person’s watches, or says there are none', () => {
    expect(watchesToolText([])).toBe('You have no stock watches.');
    const text = watchesToolText([
      makeWatchSummary({
        code: 'WIDGET-9',
        branchName: 'Perth',
        direction: 'below',
        threshold: 20,
      }),
    ]);
    expect(text).toContain('WIDGET-9 at Perth: tells when it goes below 20');
  });
});
