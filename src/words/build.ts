/**
 * "can we build 10 PLANT-88?", "could we build 5 WIDGET-9 at perth": the build check, as
 * `/stock PLANT-88 build 10 [at perth]` asks it. Read only with one item code and a whole
 * quantity beside the word `build`; anything less is left to the other readings (a plain
 * stock question), never guessed.
 */
import { type Marks, readBranch, readQuantity } from './parts.js';
import type { CodeHit, Reading } from './reading.js';
import type { Token } from './tokens.js';

const BUILD_WORDS = new Set(['build', 'built', 'assemble', 'assembled']);

export function readBuildIntent(
  tokens: readonly Token[],
  used: Marks,
  codes: readonly CodeHit[],
  branchNames: readonly string[],
): Reading | undefined {
  const at = tokens.findIndex((token, i) => !used[i] && BUILD_WORDS.has(token.word));
  const [hit, ...others] = codes;
  if (at < 0 || hit === undefined || others.length > 0 || hit.near.length > 0) return undefined;
  // Marked on a copy: a sentence this is not is read afresh by the others.
  const marks = [...used];
  marks[at] = true;
  const quantity = readQuantity(tokens, marks);
  if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) {
    return undefined;
  }
  const branchWords = readBranch(tokens, marks, branchNames, false);
  marks.forEach((mark, i) => {
    used[i] = mark;
  });
  return { kind: 'request', request: { kind: 'build', code: hit.code, quantity, branchWords } };
}
