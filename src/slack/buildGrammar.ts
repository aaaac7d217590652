/**
 * `/stock CODE build N [at BRANCH]`: the build check's form of the grammar. Without a whole
 * number after `build` the words read as before (`/stock WIDGET-9 build` asks about a branch
 * named so); 0 is a usage problem, as for any quantity. The parser lends its own readers of a
 * quantity and of branch words, so both forms read them alike.
 */
import { quote, type Step } from './input.js';

/** Whether N can be built from the first level of the item's bill of materials. */
export interface BuildRequest {
  kind: 'build';
  code: string;
  quantity: number;
  branchWords: string[];
}

interface Readers {
  quantityOf: (word: string) => number | undefined;
  branchWords: (words: readonly string[]) => string[];
}

export function readBuild(
  code: string,
  rest: readonly string[],
  readers: Readers,
): Step<BuildRequest> | undefined {
  const [amount = '', ...branch] = rest;
  const quantity = readers.quantityOf(amount);
  if (quantity === undefined) return undefined;
  if (quantity === 0) {
    return { ok: false, error: { kind: 'quantity_not_positive', typed: quote(amount), code } };
  }
  return {
    ok: true,
    value: { kind: 'build', code, quantity, branchWords: readers.branchWords(branch) },
  };
}
