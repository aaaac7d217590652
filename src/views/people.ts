/**
 * Addressbook people as compact lines: who they are, then how to reach them (already
 * redacted on cards; in full only in the reveal answer).
 */
import type { AddressbookEntry } from '../erp/schemas.js';
import { oneLine } from './format.js';

/** People per card page: two or three screens of a phone at most. */
export const PEOPLE_PAGE_SIZE = 8;

function personName(person: AddressbookEntry): string {
  const name = [person.salutation, person.name]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');
  return oneLine(name, 60) || '_(no name)_';
}

/** "*Ms Jane Doe* · Purchasing Manager · Purchasing · _Inactive_" */
export function personTitle(person: AddressbookEntry): string {
  const status = person.status_label.trim();
  const parts = [
    `*${personName(person)}*`,
    oneLine(person.role, 50),
    oneLine(person.department, 50),
    status !== '' && status !== 'Active' ? `_${oneLine(status, 30)}_` : '',
  ];
  return parts.filter(Boolean).join(' · ');
}

/** ":telephone_receiver: … · :iphone: … · :email: …", or a dash when there is nothing. */
function reachLine(person: AddressbookEntry): string {
  const parts = [
    person.telephone ? `:telephone_receiver: ${oneLine(person.telephone, 40)}` : '',
    person.mobile ? `:iphone: ${oneLine(person.mobile, 40)}` : '',
    person.email ? `:email: ${oneLine(person.email, 80)}` : '',
    person.email2 ? `:email: ${oneLine(person.email2, 80)}` : '',
  ];
  return parts.filter(Boolean).join(' · ') || '_no phone or e-mail on file_';
}

/** "*Jane Citizen* · Purchasing Officer": one person on one phone line (about 40 characters). */
export function personLine(person: AddressbookEntry): string {
  const full = [person.salutation, person.name]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');
  const room = Math.max(14, 37 - Math.min(24, [...full].length));
  const role = oneLine(person.role, room) || oneLine(person.department, room);
  const name = `*${oneLine(full, 24) || '_(no name)_'}*`;
  return role ? `${name} · ${role}` : name;
}

export function personLines(person: AddressbookEntry): string {
  return `${personTitle(person)}\n${reachLine(person)}`;
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PEOPLE_PAGE_SIZE));
}

/** Clamps the page: a stale button (fewer people now) shows the last page instead of none. */
export function clampPage(page: number | undefined, total: number): number {
  const requested = Number.isInteger(page) && page !== undefined && page > 0 ? page : 0;
  return Math.min(requested, pageCount(total) - 1);
}
