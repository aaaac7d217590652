import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/erp/schemas.js';
import { ACTION } from '../../src/views/actions.js';
import { contactCard, contactReveal } from '../../src/views/contactCard.js';
import { checkMessageLimits } from '../../src/views/limits.js';
import { makeAddressbookEntry, makeContact, makeFreshness, TEST_NOW } from '../helpers/builders.js';
import { allText, button, buttons } from './inspect.js';

// Drawn for a full member unless a test says otherwise (privacy/internalFigures.ts).
const card = (contact: Contact, extra: Partial<Parameters<typeof contactCard>[0]> = {}) =>
  contactCard({
    contact,
    freshness: makeFreshness(),
    now: TEST_NOW,
    canReveal: true,
    internalFigures: true,
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
      type: 'header',
      text: { type: 'plain_text', text: 'Acme Pty Ltd', emoji: true },
    });
    expect(message.blocks[1]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '`ACME01` · Customer · :no_entry: *Suspended* · :no_entry: *Stop credit*',
        verbatim: true,
      },
    });
    const text = allText(message);
    for (const expected of [
      '*Pricing group*\nWholesale',
      '*Salesperson*\n_Unassigned_',
      '*State*\nNSW',
      '*Address line 4*\nSydney',
      '*Terms*\n30 days EOM',
      '*Credit limit*\n12,500.5',
      '*Discount*\n7.5',
      '*Stop credit*\n:no_entry: *1*',
      '*ABN*\n51 824 753 556',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('redacts every phone and e-mail in blocks and text, whatever the caller passes', () => {
    const contact = makeContact({ addressbook: people(5) });
    const message = card(contact);
    const text = allText(message);
    for (const secret of secretsOf(contact)) expect(text).not.toContain(secret);
    expect(text).toContain('*Phone*\n•••• ••• 234');
    expect(text).toContain('*E-mail*\na•••@acme.com.au');
    expect(text).toContain(
      ':telephone_receiver: •••• ••• 111 · :iphone: •••• ••• 222 · :email: p•••@acme.com.au · :email: p•••@mail.example',
    );
  });

  it('pages a 40-person addressbook 8 at a time, within the limits', () => {
    const contact = makeContact({ addressbook: people(40) });
    const first = card(contact);
    expect(checkMessageLimits(first)).toEqual([]);
    expect(allText(first)).toContain('*People* · 40 · 1–8 (page 1 of 5)');
    expect(allText(first)).toContain('Person 7');
    expect(allText(first)).not.toContain('Person 8*');
    expect(buttons(first).some((b) => b.label.includes('Previous'))).toBe(false);
    const next = button(first, 'Next');
    expect(next.actionId).toBe(`${ACTION.contactPeoplePage}:1`);
    expect(next.state).toEqual({ v: 1, t: 'c', r: { c: 'ACME01' }, pp: 1 });

    const third = card(contact, { peoplePage: 2 });
    expect(allText(third)).toContain('17–24 (page 3 of 5)');
    expect(button(third, 'Previous').state).toMatchObject({ pp: 1 });
    expect(button(third, 'Next').state).toMatchObject({ pp: 3 });
    expect(checkMessageLimits(third)).toEqual([]);
  });

  it('clamps a page past the end to the last page', () => {
    expect(allText(card(makeContact({ addressbook: people(10) }), { peoplePage: 9 }))).toContain(
      'page 2 of 2',
    );
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
      'Acme Pty Ltd (ACME01) · Customer · Active · 1 person · fetched 2 Mar 2026 at 10:42 UTC',
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

  it('fits a 40-person addressbook', () => {
    const message = contactReveal({
      contact: makeContact({ addressbook: people(40) }),
      now: TEST_NOW,
    });
    expect(checkMessageLimits(message)).toEqual([]);
    expect(allText(message)).toContain('person39@acme.com.au');
  });
});
