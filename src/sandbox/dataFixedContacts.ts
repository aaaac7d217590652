/**
 * Well-known contacts: ACME01 (the docs' example) and other "Acme" accounts for searches, an
 * account with 40 people, one with none, a code that needs encoding, and hostile or
 * non-Latin names.
 */
import type { ContactFactory, PersonSpec } from './dataContacts.js';

export const FIXED_CONTACT_CODES = [
  'ACME01',
  'ACME02',
  'ACMEWH01',
  'BIGCO01',
  'EMPTY01',
  'R&D/01',
  'EVIL01',
  'INTL01',
] as const;

const ACME_PEOPLE: PersonSpec[] = [
  { name: 'Jane Citizen', sex: 'female', role: 'Purchasing Officer', complete: true },
  { name: 'John Smith', sex: 'male', role: 'Accounts Payable', complete: true },
  { name: 'Priya Natarajan', sex: 'female', role: 'Operations Manager', complete: true },
  { name: 'Liam O\u2019Connor', sex: 'male', role: 'Workshop Supervisor', complete: true },
  { name: 'Mei Chen', sex: 'female', role: 'Director', complete: true },
  { name: 'José Muñoz', role: 'Store Manager', complete: true },
];

const HOSTILE_PEOPLE: PersonSpec[] = [
  { name: '<!channel> Bot', role: '<!here> urgent' },
  { name: '<@U123> Impersonator', role: '*Boss* _really_' },
  { name: 'Click <https://evil.example|here>', role: '~Struck~ & Co' },
];

const INTERNATIONAL_PEOPLE: PersonSpec[] = [
  { name: '山田 太郎', role: '購買担当' },
  { name: 'محمد العلي', role: 'مدير المشتريات' },
  { name: 'Иван Петров', role: 'Менеджер' },
  { name: 'Zoë Ångström 🌟', role: 'Buyer 🛒' },
];

export function createFixedContacts(f: ContactFactory): void {
  f.create({
    // The id the help, the manifest and the README use: `/contact id:123`.
    clientid: 123,
    code: 'ACME01',
    company: 'Acme Industrial Supplies Pty Ltd',
    tradingName: 'Acme Industrial',
    accountType: 'Customer',
    suspended: false,
    salesperson: 'Sam Sales',
    people: ACME_PEOPLE,
  });
  f.create({
    code: 'ACME02',
    company: 'Acme Logistics',
    accountType: 'Supplier',
    suspended: false,
    people: [],
  });
  f.create({
    code: 'ACMEWH01',
    company: 'Wholesale Traders Pty Ltd',
    tradingName: 'Acme Wholesale',
    accountType: 'Customer & Supplier',
    suspended: true,
    // On stop credit for every seed: the README sends people here to see the flag.
    stopcred: 1,
    salesperson: null,
    peopleCount: 3,
  });
  f.create({
    code: 'BIGCO01',
    company: 'Big Mining Co',
    accountType: 'Customer',
    suspended: false,
    peopleCount: 40,
  });
  f.create({
    code: 'EMPTY01',
    company: 'Empty Shell Pty Ltd',
    accountType: 'Unclassified',
    salesperson: null,
    people: [],
  });
  f.create({
    code: 'R&D/01',
    company: 'R&D Laboratories',
    accountType: 'Customer',
    suspended: false,
    peopleCount: 2,
  });
  f.create({
    code: 'EVIL01',
    company: '<!channel> Traders & Co *bold* _it_ ~x~',
    tradingName: '<https://evil.example|click>',
    accountType: 'Customer',
    suspended: false,
    people: HOSTILE_PEOPLE,
  });
  f.create({
    code: 'INTL01',
    company: '株式会社 Ōsaka Trading',
    tradingName: 'Осака Трейдинг',
    accountType: 'Customer & Supplier',
    suspended: false,
    people: INTERNATIONAL_PEOPLE,
  });
}
