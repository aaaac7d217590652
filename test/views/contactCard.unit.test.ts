import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/erp/schemas.js';
import { matchingPeople } from '../../src/rules/people.js';
import { ACTION } from '../../src/views/actions.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { contactCard, contactReveal } from '../../src/views/contactCard.js';
import { emailLink, phoneLink } from '../../src/views/contactReveal.js';
import { makeAddressbookEntry, makeContact, makeFreshness, TEST_NOW } from '../helpers/builders.js';
import { allText, button, buttons } from './inspect.js';

// Drawn for a full member unless a test says otherwise (privacy/access.ts).
const card = (contact: Contact, extra: Partial<Parameters<typeof contactCard>[0]> = {}) =>
  contactCard({
    contact,
    freshness: makeFreshness(),
    now: TEST_NOW,
    canReveal: true,
    internalFigures: true,
    // The answer keeps the people the words name (src/slack/answers.ts); so does this helper.
    ...(extra.peopleWords && { people: matchingPeople(contact.addressbook, extra.peopleWords) }),
    ...extra,
  });

/** Each person's phones and e-mails distinct, so a leak of any one of them is caught. */
const people = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    makeAddressbookEntry({
      id: i,
      name: `Person ${i}`,
      telephone: `02 9${String(i).padStart(3, '0')} 1111`,
      mobile: `0412 ${String(i).padStart(3, '0')} 222`,
      email: `person${i}@acme.com.au`,
      email2: `p${i}.home@mail.example`,
    }),
  );

function secretsOf(contact: Contact): string[] {
  return [
    contact.telephone,
    contact.email,
    ...contact.addressbook.flatMap((p) => [p.telephone, p.mobile, p.email, p.email2]),
  ].filter((s) => s !== '');
}

describe('contactCard', () => {
  it('shows company, code, type, status and the account fields as given', () => {
    const message = card(
      makeContact({
        status_label: 'Suspended',
        salesperson: null,
        climit: 12500.5,
        discount: 7.5,
        stopcred: 1,
      }),
    );
    expect(message.blocks[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*Acme Pty Ltd*\n`ACME01` · Customer · :no_entry: *Suspended*',
        verbatim: true,
      },
    });
    // A stop credit is a warning in plain words, not a figure.
    expect(message.blocks[1]).toMatchObject({
      type: 'section',
      text: { text: ':warning: *On stop credit: check before shipping*' },
    });
    const text = allText(message);
    for (const expected of [
      'Salesperson *_Unassigned_* · Pricing group Wholesale',
      // The terms in one line, as the ERP gives them: no invented unit, no "(not given)".
      'Credit limit 12,500.5 · Terms 30 days EOM · Discount 7.5',
      'NSW · Sydney · ABN 51 824 753 556',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/not given|Stop credit ⛔|:no_entry: \*1\*/);
    expect(message.text).toContain('on stop credit: check before shipping');
  });

  it('redacts every phone and e-mail in blocks and text, whatever the caller passes', () => {
    const contact = makeContact({ addressbook: people(5) });
    const message = card(contact);
    const text = allText(message);
    for (const secret of secretsOf(contact)) expect(text).not.toContain(secret);
    expect(text).toContain(':telephone_receiver: •••• ••• 234 · :email: a•••@acme.com.au');
    const all = allText(card(contact, { allPeople: true }));
    for (const secret of secretsOf(contact)) expect(all).not.toContain(secret);
    expect(all).toContain(
      ':telephone_receiver: •••• ••• 111 · :iphone: •••• ••• 222 · :email: p•••@acme.com.au · :email: p•••@mail.example',
    );
  });

  it('lists five people one line each, then "All people (N)"', () => {
    const contact = makeContact({ addressbook: people(40) });
    const message = card(contact);
    const text = allText(message);
    expect(text).toContain('*Ms Person 4* · Purchasing Manager');
    expect(text).not.toContain('Person 5');
    expect(button(message, 'All people (40)').state).toEqual({
      v: 1,
      t: 'c',
      r: { c: 'ACME01' },
      m: 'a',
    });
  });

  it('pages a 40-person addressbook 8 at a time in the all-people view, with Back', () => {
    const contact = makeContact({ addressbook: people(40) });
    const first = card(contact, { allPeople: true });
    expect(checkMessageLimits(first)).toEqual([]);
    expect(button(first, 'Back').state).toEqual({ v: 1, t: 'c', r: { c: 'ACME01' } });
    expect(allText(first)).toContain('*People* · 40 · 1–8 (page 1 of 5)');
    expect(allText(first)).toContain('Person 7');
    expect(allText(first)).not.toContain('Person 8*');
    expect(buttons(first).some((b) => b.label.includes('Previous'))).toBe(false);
    const next = button(first, 'Next');
    expect(next.actionId).toBe(`${ACTION.contactPeoplePage}:1`);
    expect(next.state).toEqual({ v: 1, t: 'c', r: { c: 'ACME01' }, pp: 1, m: 'a' });

    const third = card(contact, { peoplePage: 2, allPeople: true });
    expect(allText(third)).toContain('17–24 (page 3 of 5)');
    expect(button(third, 'Previous').state).toMatchObject({ pp: 1 });
    expect(button(third, 'Next').state).toMatchObject({ pp: 3 });
    expect(checkMessageLimits(third)).toEqual([]);
  });

  it('clamps a page past the end to the last page', () => {
    const contact = makeContact({ addressbook: people(10) });
    expect(allText(card(contact, { peoplePage: 9, allPeople: true }))).toContain('page 2 of 2');
  });

  it('offers Reveal only when allowed, and Share and Refresh', () => {
    expect(buttons(card(makeContact())).map((b) => [b.label, b.actionId])).toEqual([
      ['Reveal details', ACTION.contactReveal],
      ['Share to channel', ACTION.contactShare],
      ['Refresh', ACTION.contactRefresh],
    ]);
    expect(buttons(card(makeContact(), { canReveal: false })).map((b) => b.label)).toEqual([
      'Share to channel',
      'Refresh',
    ]);
  });

  it('when shared: redacted, no Share, a View button and Reveal for each reader', () => {
    const contact = makeContact({ addressbook: people(12) });
    const message = card(contact, { shared: true, canReveal: true });
    expect(buttons(message).map((b) => [b.label, b.actionId])).toEqual([
      ['View', ACTION.contactView],
      ['Reveal details', ACTION.contactReveal],
    ]);
    for (const secret of secretsOf(contact)) expect(allText(message)).not.toContain(secret);
    expect(buttons(card(contact, { shared: true, canReveal: false })).map((b) => b.label)).toEqual([
      'View',
    ]);
  });

  it('keeps the fallback text free of personal contact data', () => {
    const message = card(makeContact());
    expect(message.text).toBe(
      'Acme Pty Ltd (ACME01) · Customer · Active · 1 person · fetched 3 min ago',
    );
  });
});

describe('contactReveal', () => {
  it('shows every phone and e-mail in full, but not in the fallback text', () => {
    const contact = makeContact({ addressbook: people(3) });
    const message = contactReveal({ contact, now: TEST_NOW });
    const blocksText = allText({ ...message, text: '' });
    for (const secret of secretsOf(contact)) {
      expect(blocksText).toContain(secret);
      expect(message.text).not.toContain(secret);
    }
    expect(buttons(message)).toEqual([]);
  });

  it('fits a 40-person addressbook, saying how many did not fit', () => {
    const message = contactReveal({
      contact: makeContact({ addressbook: people(40) }),
      now: TEST_NOW,
    });
    expect(checkMessageLimits(message)).toEqual([]);
    const text = allText(message);
    const shown = text.match(/<mailto:person\d+@acme\.com\.au\|/g)?.length ?? 0;
    expect(shown).toBeGreaterThan(20);
    if (shown < 40) expect(text).toContain(`+${40 - shown} more people: too many to show`);
  });

  it('reveals only the people the card was filtered to, with tappable links', () => {
    const addressbook = [
      makeAddressbookEntry({
        id: 1,
        name: 'Jane Doe',
        role: 'Accounts',
        email: 'jane@acme.com.au',
        telephone: '+61 2 9000 1234',
      }),
      makeAddressbookEntry({ id: 2, name: 'Bob Roe', role: 'Buyer', email: 'bob@acme.com.au' }),
    ];
    const contact = makeContact({ addressbook });
    const message = contactReveal({
      contact,
      now: TEST_NOW,
      peopleWords: ['accounts'],
      people: matchingPeople(contact.addressbook, ['accounts']),
    });
    const text = allText(message);
    expect(text).toContain('*People* · 1 of 2 people matching “accounts”');
    expect(text).toContain('<mailto:jane@acme.com.au|jane@acme.com.au>');
    expect(text).toContain('<tel:+61290001234|+61 2 9000 1234>');
    expect(text).not.toContain('bob@acme.com.au');
  });

  it('keeps odd phone and e-mail text as text, never as a link', () => {
    expect(phoneLink('ask reception')).toBe('ask reception');
    expect(phoneLink('12')).toBe('12');
    expect(emailLink('a|b@c.com>')).toBe('a|b@c.com&gt;');
    expect(emailLink('<mailto:x@y.z|x>')).not.toContain('<mailto:x@y.z|x>');
  });
});

describe('contactCard: a people filter', () => {
  const addressbook = [
    makeAddressbookEntry({ id: 1, name: 'Jane Doe', role: 'Accounts Payable' }),
    makeAddressbookEntry({ id: 2, name: 'Bob Roe', role: 'Buyer' }),
    makeAddressbookEntry({ id: 3, name: 'Ann Lee', department: 'Accounts' }),
  ];

  it('lists only the matching people, says how many of all, and Reveal carries the filter', () => {
    const message = card(makeContact({ addressbook }), { peopleWords: ['accounts'] });
    const text = allText(message);
    expect(text).toContain(
      '2 of 3 people match “accounts”\n*Ms Jane Doe* · Accounts Payable\n*Ms Ann Lee* ·',
    );
    expect(text).not.toContain('Bob Roe');
    expect(button(message, 'Reveal these details').state).toMatchObject({ pf: ['accounts'] });
    expect(button(message, 'Share to channel').state).toMatchObject({ pf: ['accounts'] });
  });

  it('says when nobody matches, and notes a retried search', () => {
    const message = card(makeContact({ addressbook }), {
      peopleWords: ['warehouse'],
      retriedFrom: ['acme', 'warehouse'],
    });
    const text = allText(message);
    expect(text).toContain('None of 3 people match “warehouse”.');
    expect(text).toContain('No contact matched “acme warehouse”');
  });

  it('leaves out a zero stop-credit flag', () => {
    expect(allText(card(makeContact({ stopcred: 0 })))).not.toContain('Stop credit');
  });
});
