import { describe, expect, it } from 'vitest';
import {
  redactContact,
  redactContactRow,
  redactEmail,
  redactPhone,
} from '../../src/views/redact.js';
import { makeAddressbookEntry, makeContact, makeContactRow } from '../helpers/builders.js';

describe('redactEmail', () => {
  it('keeps the first letter and the domain', () => {
    expect(redactEmail('jane.doe@acme.com.au')).toBe('j•••@acme.com.au');
  });

  it('masks every address in a list and drops whatever else the field held', () => {
    expect(redactEmail('jane@acme.com; bob.x@example.org (home) call 0412 345 678')).toBe(
      'j•••@acme.com, b•••@example.org',
    );
  });

  it('masks text that is not an address entirely', () => {
    expect(redactEmail('ask reception 9876 5432')).toBe('•••');
  });

  it('keeps empty empty and is idempotent', () => {
    expect(redactEmail('')).toBe('');
    expect(redactEmail(redactEmail('jane@acme.com'))).toBe('j•••@acme.com');
  });

  it('keeps a non-Latin first character whole', () => {
    expect(redactEmail('𝒿ane@acme.com')).toBe('𝒿•••@acme.com');
  });
});

describe('redactPhone', () => {
  it('keeps the last three digits in a fixed shape', () => {
    expect(redactPhone('+61 2 9876 5321')).toBe('•••• ••• 321');
    expect(redactPhone('0412-345-678 ext. 9')).toBe('•••• ••• 789');
  });

  it('hides short numbers entirely', () => {
    expect(redactPhone('12345')).toBe('•••');
    expect(redactPhone('reception')).toBe('•••');
  });

  it('keeps empty empty and is idempotent', () => {
    expect(redactPhone('')).toBe('');
    expect(redactPhone(redactPhone('02 9876 5321'))).toBe('•••• ••• 321');
  });
});

describe('redactContact and redactContactRow', () => {
  it('masks the company and every person, leaving other fields alone', () => {
    const contact = makeContact({
      telephone: '02 9000 1234',
      email: 'accounts@acme.com.au',
      addressbook: [
        makeAddressbookEntry({
          telephone: '02 9876 5321',
          mobile: '0412 345 678',
          email: 'jane@acme.com',
          email2: 'j.doe@gmail.com',
        }),
      ],
    });
    const redacted = redactContact(contact);
    expect(redacted).toEqual({
      ...contact,
      telephone: '•••• ••• 234',
      email: 'a•••@acme.com.au',
      addressbook: [
        {
          ...contact.addressbook[0],
          telephone: '•••• ••• 321',
          mobile: '•••• ••• 678',
          email: 'j•••@acme.com',
          email2: 'j•••@gmail.com',
        },
      ],
    });
    expect(contact.telephone).toBe('02 9000 1234'); // the input is not mutated
  });

  it('masks a search row', () => {
    expect(
      redactContactRow(makeContactRow({ telephone: '02 9000 1234', email: 'x@y.com' })),
    ).toMatchObject({
      telephone: '•••• ••• 234',
      email: 'x•••@y.com',
    });
  });
});
