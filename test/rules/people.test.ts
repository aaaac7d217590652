import { describe, expect, it } from 'vitest';
import { contactRetryPlan, matchingPeople } from '../../src/rules/people.js';
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
