import { describe, expect, it } from 'vitest';
import {
  contactRetryPlan,
  matchingPeople,
  otherApostrophe,
  unsearchableKind,
} from '../../src/rules/people.js';
import { makeAddressbookEntry } from '../helpers/builders.js';

const people = [
  makeAddressbookEntry({
    id: 1,
    name: 'Jane Smith',
    role: 'Accounts Payable',
    department: 'Finance',
  }),
  makeAddressbookEntry({ id: 2, name: 'Bob Jones', role: 'Buyer', department: 'Purchasing' }),
  makeAddressbookEntry({ id: 3, name: 'Zoë Accountson', role: 'Director', department: '' }),
  makeAddressbookEntry({ id: 4, name: 'Ann Lee', role: 'Clerk', department: 'Accounts' }),
];

describe('matchingPeople', () => {
  it('keeps the people matching every word in name, role or department', () => {
    expect(matchingPeople(people, ['accounts']).map((p) => p.id)).toEqual([1, 3, 4]);
    expect(matchingPeople(people, ['ACCOUNTS', 'jane']).map((p) => p.id)).toEqual([1]);
    expect(matchingPeople(people, ['zoe']).map((p) => p.id)).toEqual([3]);
    expect(matchingPeople(people, ['nobody'])).toEqual([]);
    expect(matchingPeople(people, [])).toHaveLength(4);
  });
});

describe('contactRetryPlan', () => {
  it('takes the leading word (and company words after it) as the account', () => {
    expect(contactRetryPlan({ words: ['acme', 'accounts'] })).toEqual({
      account: { words: ['acme'] },
      peopleWords: ['accounts'],
    });
    expect(contactRetryPlan({ words: ['acme', 'pty', 'ltd', 'jane'], type: 'client' })).toEqual({
      account: { words: ['acme', 'pty', 'ltd'], type: 'client' },
      peopleWords: ['jane'],
    });
  });

  it('has nothing to retry for one word', () => {
    expect(contactRetryPlan({ words: ['acme'] })).toBeUndefined();
    expect(contactRetryPlan({ words: [] })).toBeUndefined();
  });
});

describe('role words, apostrophes and what the ERP cannot search', () => {
  it('reads unsearchable words as a phone, an e-mail or an ABN', () => {
    expect(unsearchableKind(['0412', '345', '678'])).toBe('phone');
    expect(unsearchableKind(['jane@acme.com.au'])).toBe('email');
    expect(unsearchableKind(['51', '824', '753', '556'])).toBe('abn');
    expect(unsearchableKind(['acme'])).toBeUndefined();
  });

  it('swaps a straight apostrophe for a curly one and back', () => {
    expect(otherApostrophe(["o'connor"])).toEqual(['o’connor']);
    expect(otherApostrophe(['o’connor'])).toEqual(["o'connor"]);
    expect(otherApostrophe(['acme'])).toBeUndefined();
  });
});

describe('role synonyms', () => {
  it('finds the purchasing person for "buyer" and accounts payable for "ap"', () => {
    const staff = [
      makeAddressbookEntry({ id: 1, name: 'Ann Lee', role: 'Purchasing Officer', department: '' }),
      makeAddressbookEntry({ id: 2, name: 'Mark Ward', role: 'Accounts Payable', department: '' }),
    ];
    expect(matchingPeople(staff, ['buyer']).map((p) => p.id)).toEqual([1]);
    expect(matchingPeople(staff, ['ap']).map((p) => p.id)).toEqual([2]);
    // Two letters never count as themselves: "Mark" holds `ma`, nobody is a managing anything.
    expect(matchingPeople(staff, ['md']).map((p) => p.id)).toEqual([]);
  });

  it("matches a name with either apostrophe: o'connor is O’Connor", () => {
    const staff = [
      makeAddressbookEntry({ id: 3, name: 'Liam O’Connor', role: '', department: '' }),
    ];
    expect(matchingPeople(staff, ["o'connor"]).map((p) => p.id)).toEqual([3]);
  });
});
