/**
 * What an item code looks like when a person writes it in a sentence or a message: the one
 * heuristic the message shortcut and the sentence reader share. Pure and linear in the token.
 *
 * A piece counts as an item code when it:
 * - is 2..40 characters of ASCII letters, digits and `-` `/` `.` `_`, starting and ending with
 *   a letter or digit;
 * - has at least one letter and one digit (so not a plain number, and not an ordinary word);
 * - is mostly upper case (more upper- than lower-case letters), as ERP codes are written:
 *   `WIDGET-9`, `AB12/3`, `Bx200X`, but not `mp3`, `v1.2.3` or `iPhone15`;
 * - is not a time (`10AM`, `9.30PM`), a date (`12-JAN-2025`), a quantity with a unit (`40PCS`,
 *   `12KG`), an ordinal (`2ND`), nor a domain.
 * A lower-case code counts only where the catalogue index knows it (`sameCode`): a false
 * positive would cost an upstream lookup.
 */

import { withoutAccents } from '../catalogue/search.js';

export { withoutAccents };

const CODE_SHAPE = /^[A-Za-z0-9](?:[A-Za-z0-9\-/._]{0,38}[A-Za-z0-9])?$/;
const DOMAIN_END = /\.[a-z]{2,}$/;
const TIME = /^\d{1,2}(?:[.:]\d{2})?(?:AM|PM|HRS?|H)$/i;
const QUANTITY = /^\d+(?:PCS|PC|EA|KG|G|MG|MM|CM|M|KM|L|ML|K|X|MIN|SEC|S|ST|ND|RD|TH)$/i;
const MONTH =
  /^(?:JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|SEPT?(?:EMBER)?|OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?)$/i;

/** A code with case, accents and separators aside: `widget9`, `Widget-9` and `WIDGET-9` agree. */
export function codeKey(code: string): string {
  return withoutAccents(code)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}

/** Whether two spellings name one code: case, accents and separators aside (`widget9`). */
export function sameCode(a: string, b: string): boolean {
  return codeKey(a) === codeKey(b);
}

/** The heuristic above, for one trimmed piece of a word. */
export function looksLikeItemCode(token: string): boolean {
  if (!CODE_SHAPE.test(token)) return false;
  if (!/[0-9]/.test(token) || !/[A-Za-z]/.test(token)) return false;
  const upper = token.replace(/[^A-Z]/g, '').length;
  const lower = token.replace(/[^a-z]/g, '').length;
  if (upper <= lower) return false;
  if (DOMAIN_END.test(token) || TIME.test(token) || QUANTITY.test(token)) return false;
  return !isDate(token);
}

/** `12-JAN-2025`, `JAN/25`, `2025.Mar.01`: numbers and month names only. */
function isDate(token: string): boolean {
  const parts = token.split(/[-/.]/);
  if (parts.length < 2) return false;
  const months = parts.filter((part) => MONTH.test(part)).length;
  const numbers = parts.filter((part) => /^\d{1,4}$/.test(part)).length;
  return months > 0 && numbers > 0 && months + numbers === parts.length;
}
