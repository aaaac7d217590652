/**
 * Whether an item is named by every word of a phrase as a word, not merely as letters inside
 * one: the ERP's search matches substrings, so "WIDGET-9 wa" finds the "Wall bracket"; a
 * word qualifying an item must be one of its words (`bracket`), a piece of its code
 * (`WIDGET-9-BRACKET`), or begin one (`seal` in `SEALKIT`). Pure.
 */
import { withoutAccents } from './codeShape.js';
import { singular } from './vocabulary.js';

/** The shortest word that may match the start of a code's piece (`seal` in `SEALKIT`). */
const MIN_PREFIX = 3;

const piecesOf = (text: string) =>
  withoutAccents(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((piece) => piece !== '');

export function namesEveryWord(
  item: { code: string; description: string },
  words: readonly string[],
): boolean {
  const code = piecesOf(item.code);
  const described = piecesOf(item.description);
  const whole = new Set([...code, ...described, ...described.map(singular)]);
  return words.every((typed) => {
    const word = withoutAccents(typed).toLowerCase();
    if (whole.has(word) || whole.has(singular(word))) return true;
    // A code written in the phrase (`widget-9`) is its code's pieces in order.
    const pieces = piecesOf(word);
    if (pieces.length > 1 && pieces.every((piece) => whole.has(piece))) return true;
    return word.length >= MIN_PREFIX && code.some((piece) => piece.startsWith(word));
  });
}
