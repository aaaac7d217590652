/**
 * Contact phone numbers and e-mail addresses are redacted by default (SECURITY.md):
 * keep just enough to recognise them, never enough to use them. The contact views call
 * `redactContact` / `redactContactRow` themselves, so no view can forget it.
 *
 * ERP fields are free text: a phone field may hold two numbers or a note, an e-mail field
 * a list. The masks are built from scratch (never by blanking parts of the input), so
 * whatever else the field held cannot leak.
 */
import type { AddressbookEntry, Contact, ContactSearchRow } from '../erp/schemas.js';

const DOTS = '•••';
const PHONE_MASK = /^•••• ••• \d{3}$/;
/**
 * Bounded parts (RFC 5321: 64 for the local part, 255 for the domain) keep matching linear
 * on a long field; an unbounded `[^@]+@` backtracks quadratically over 3,000 characters.
 */
const EMAIL = /([^\s@<>,;:()[\]"']{1,64})@([^\s@<>,;:()[\]"']{1,255}\.[^\s@<>,;:()[\]"'.]{1,63})/g;
/** No real field holds more; longer input is cut before matching (the rest is never shown). */
const MAX_FIELD = 1000;
/** Fewer digits than this and showing three would give most of the number away. */
const MIN_DIGITS_TO_HINT = 6;

/** `'jane.doe@acme.com.au'` -> `'j•••@acme.com.au'`; several addresses stay several. */
export function redactEmail(email: string): string {
  if (email.trim() === '') return '';
  const masked = [...email.slice(0, MAX_FIELD).matchAll(EMAIL)].map(
    ([, local = '', domain = '']) => {
      const first = Array.from(local)[0] ?? '';
      return `${first}${DOTS}@${domain}`;
    },
  );
  return masked.length > 0 ? masked.join(', ') : DOTS;
}

/** `'+61 2 9876 5321'` -> `'•••• ••• 321'`: the last three digits only, in a fixed shape. */
export function redactPhone(phone: string): string {
  if (phone.trim() === '') return '';
  // Already masked (a redacted copy passed in again): keep the hint rather than lose it.
  if (PHONE_MASK.test(phone)) return phone;
  const digits = phone.slice(0, MAX_FIELD).replace(/\D/g, '');
  if (digits.length < MIN_DIGITS_TO_HINT) return DOTS;
  return `•••• ••• ${digits.slice(-3)}`;
}

export function redactPerson(person: AddressbookEntry): AddressbookEntry {
  return {
    ...person,
    telephone: redactPhone(person.telephone),
    mobile: redactPhone(person.mobile),
    email: redactEmail(person.email),
    email2: redactEmail(person.email2),
  };
}

/** The company's telephone and e-mail, and every person's telephone, mobile and e-mails. */
export function redactContact(contact: Contact): Contact {
  return {
    ...contact,
    telephone: redactPhone(contact.telephone),
    email: redactEmail(contact.email),
    addressbook: contact.addressbook.map(redactPerson),
  };
}

export function redactContactRow(row: ContactSearchRow): ContactSearchRow {
  return { ...row, telephone: redactPhone(row.telephone), email: redactEmail(row.email) };
}
