/**
 * The pieces of the `/stock` grammar that read codes and numbers as people write them:
 * hyphens and back-ticks, quantities (whole or decimal), and lists of codes (`A, B`, `A; B`,
 * `A 20, B 5 at brisbane`). Pure; src/slack/parser.ts composes them.
 */
import type { CodesQuestion } from '../words/reading.js';

/**
 * A code as people paste it: a non-breaking or typographic hyphen is the code's `-`
 * (`WIDGET‑9`), and back-ticks around it (`` `WIDGET-9` ``) are formatting, not the code.
 */
export function asCodesAreWritten(text: string): string {
  return text
    .replace(/[\u2010\u2011\u2012\u2212\uFE63\uFF0D]/g, '-')
    .replace(/(^|\s)`+([^`\s]+)`+(?=\s|$)/g, '$1$2');
}

/**
 * A number of units: `50`, `50x`, `x50`, `50pcs`, `50units` (a unit alone follows it), or a
 * decimal where stock is measured (`2.5` metres of cable): never a branch word.
 */
const QUANTITY = /^(?:x)?([0-9]{1,15}(?:\.[0-9]{1,3})?)(?:x|pcs?|units?|m|l|kg)?$/i;
export const UNIT_WORD = /^(?:x|pcs?|units?|m|metres?|meters?|l|litres?|liters?|kg)$/i;

export function quantityOf(word: string): number | undefined {
  const match = QUANTITY.exec(word);
  const value = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  return Number.isFinite(value) && value <= Number.MAX_SAFE_INTEGER ? value : undefined;
}

/**
 * `A, B` / `A,B,C` / `A; B`: two or more codes separated by commas, each alone or with its
 * quantity (`A 20, B 5`), the last part may end with the branch (`… at brisbane`).
 */
export function commaSeparatedCodes(
  words: readonly string[],
): { codes: string[]; question?: CodesQuestion } | undefined {
  const joined = words.join(' ');
  if (!joined.includes(',') && !joined.includes(';')) return undefined;
  const parts = joined
    // `WIDGET-9; FST-M8-25`: a semicolon separates codes as a comma does.
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length < 2) return undefined;
  const quantities: Array<number | undefined> = [];
  const codes: string[] = [];
  let branchWords: string[] = [];
  for (const [i, part] of parts.entries()) {
    const [code = '', ...rest] = part.split(' ');
    const quantity = rest[0] === undefined ? undefined : quantityOf(rest[0]);
    const after = quantity === undefined ? rest : rest.slice(1);
    if (quantity === 0) return undefined;
    if (after.length > 0) {
      // Only the last part names the branch, after `at`, `in` or `from`.
      const marker = after[0]?.toLowerCase();
      const named = marker === 'at' || marker === 'in' || marker === 'from';
      if (i !== parts.length - 1 || !named || after.length < 2) return undefined;
      branchWords = after.slice(1);
    }
    codes.push(code);
    quantities.push(quantity);
  }
  const distinct = distinctCodes(codes);
  const asked = quantities.some((q) => q !== undefined) || branchWords.length > 0;
  if (!asked) return { codes: distinct };
  if (distinct.length !== codes.length) return undefined;
  return { codes, question: { quantities, branchWords } };
}

/** Codes in the order typed, each once whatever its case. */
export function distinctCodes(codes: readonly string[]): string[] {
  const seen = new Set<string>();
  return codes.filter((code) => {
    const key = code.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
