/**
 * Judging the sentence reader on a corpus: each sentence's reading is correct (the request
 * expected, or the question back expected), an ask-back (a question or "not understood" where
 * a request was expected: no harm done), or wrong (a different item, quantity, branch, account
 * or kind of request: the number that must stay at zero).
 *
 * Branch words are judged by what the command makes of them on the sandbox's branches (the
 * command matches prefixes: `mel` is Melbourne): the branch expected is correct, no branch at
 * all (words naming none) is an ask-back ("Which branch?"), another branch is wrong. A code
 * the sandbox does not have is an ask-back too (the command answers "Did you mean …?").
 */
import { CatalogueStore } from '../../src/catalogue/store.js';
import type { BranchStock } from '../../src/erp/schemas.js';
import { matchBranch } from '../../src/rules/stock.js';
import { generateSandboxData } from '../../src/sandbox/data.js';
import { itemSearchRow } from '../../src/sandbox/render.js';
import type { NotUnderstoodReason } from '../../src/views/words.js';
import { BranchNames, catalogueWordsIndex } from '../../src/words/catalogueIndex.js';
import type { Reading, WordsIndex } from '../../src/words/reading.js';

export type Expected =
  | { item: string; quantity?: number; branch?: string }
  /** `quantities` by position and `branch`: what each line's verdict must answer. */
  | { codes: string[]; quantities?: Array<number | undefined>; branch?: string }
  | { asks: 'several_items' | 'near_codes' }
  | { asksWith: string }
  | { contact: { code: string } | { words: string[] }; people: string[] }
  | { watch: string; direction: 'below' | 'above'; threshold: number; branch?: string }
  | { help: true }
  | { watches: true }
  | { unwatch: string }
  /** "price of WIDGET-9": the card with the sell price first. */
  | { price: string }
  | { notUnderstood: NotUnderstoodReason };

export type Verdict = 'correct' | 'asks' | 'wrong';

const data = generateSandboxData();
const BRANCHES = data.branches.map(
  (branch) => ({ id: branch.id, name: branch.name }) as unknown as BranchStock,
);
const CODES = new Set(data.items.map((item) => item.record.code));

/** The branch the command would answer for, `undefined` for none asked, `null` for unknown words. */
function branchOf(words: readonly string[]): string | null | undefined {
  if (words.length === 0) return undefined;
  return matchBranch(BRANCHES, words).branch?.name.toLowerCase() ?? null;
}

/** The sandbox's catalogue, complete, with its branch names learned: what a warm app has. */
export function sandboxIndex(options: { complete?: boolean; branches?: boolean } = {}): WordsIndex {
  const store = new CatalogueStore();
  store.addRows(
    data.items.map((item) => itemSearchRow(item)),
    Date.now(),
  );
  const names = new BranchNames();
  if (options.branches ?? true) names.learn(data.branches.map((branch) => branch.name));
  return catalogueWordsIndex({ store, isComplete: () => options.complete ?? true }, names);
}

const sameWords = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  (a ?? []).join(' ').toLowerCase() === (b ?? []).join(' ').toLowerCase();

/** How a reading compares with what was expected. */
export function judge(reading: Reading, expected: Expected): Verdict {
  // A code the ERP does not have gets "Did you mean …?" from the command: a question too.
  const unknownCode =
    reading.kind === 'request' &&
    reading.request.kind === 'item' &&
    !CODES.has(reading.request.code);
  // Words the index could not settle after the code: the command resolves the phrase (the
  // item itself, another, or a question), so the reading alone is no answer yet.
  const unsettled =
    reading.kind === 'request' &&
    reading.request.kind === 'item' &&
    (reading.request.qualifiers?.length ?? 0) > 0;
  const asked =
    reading.kind === 'not_sure' || reading.kind === 'not_understood' || unknownCode || unsettled;
  if ('asks' in expected) {
    return reading.kind === 'not_sure' && reading.reason === expected.asks
      ? 'correct'
      : asked
        ? 'asks'
        : 'wrong';
  }
  if ('asksWith' in expected) {
    return reading.kind === 'not_sure' &&
      reading.candidates.some((c) => c.code === expected.asksWith)
      ? 'correct'
      : asked
        ? 'asks'
        : 'wrong';
  }
  if ('notUnderstood' in expected) {
    if (reading.kind === 'not_understood')
      return reading.reason === expected.notUnderstood ? 'correct' : 'asks';
    return reading.kind === 'not_sure' ? 'asks' : 'wrong';
  }
  if (reading.kind !== 'request' || unsettled) return 'asks';
  const request = reading.request;
  if ('help' in expected) return request.kind === 'help' ? 'correct' : 'wrong';
  if ('watches' in expected) return request.kind === 'watches' ? 'correct' : 'wrong';
  if ('unwatch' in expected) {
    return request.kind === 'unwatch' &&
      request.code.toLowerCase() === expected.unwatch.toLowerCase()
      ? 'correct'
      : 'wrong';
  }
  if ('price' in expected) {
    if (request.kind !== 'price') return 'wrong';
    if (request.code.toLowerCase() === expected.price.toLowerCase()) return 'correct';
    return CODES.has(request.code) ? 'wrong' : 'asks';
  }
  if ('item' in expected) {
    if (request.kind !== 'item') return 'wrong';
    if (!CODES.has(request.code) && request.code.toLowerCase() !== expected.item.toLowerCase()) {
      return 'asks';
    }
    if (request.code.toLowerCase() !== expected.item.toLowerCase()) return 'wrong';
    if (request.quantity !== expected.quantity) return 'wrong';
    return branchVerdict(request.branchWords, expected.branch);
  }
  if ('codes' in expected) {
    if (request.kind !== 'codes' || !sameWords(request.codes, expected.codes)) return 'wrong';
    const quantities = request.question?.quantities ?? [];
    const wanted = expected.quantities ?? [];
    const same = expected.codes.every((_, i) => quantities[i] === wanted[i]);
    if (!same) return 'wrong';
    return branchVerdict(request.question?.branchWords ?? [], expected.branch);
  }
  if ('contact' in expected) {
    if (request.kind !== 'contact') return 'wrong';
    const account = request.account;
    const want = expected.contact;
    const sameAccount =
      'code' in want
        ? 'code' in account && account.code === want.code
        : 'words' in account && sameWords(account.words, want.words);
    return sameAccount && sameWords(request.peopleWords, expected.people) ? 'correct' : 'wrong';
  }
  if (request.kind !== 'watch') return 'wrong';
  const right =
    request.code.toLowerCase() === expected.watch.toLowerCase() &&
    request.direction === expected.direction &&
    request.threshold === expected.threshold;
  return right ? branchVerdict(request.branchWords, expected.branch) : 'wrong';
}

/** The branch as the command reads the words, against the branch expected. */
function branchVerdict(words: readonly string[], expected: string | undefined): Verdict {
  const got = branchOf(words);
  const want = branchOf(expected?.split(' ') ?? []);
  if (got === want) return 'correct';
  return got === null ? 'asks' : 'wrong';
}

export interface Tally {
  correct: number;
  asks: number;
  wrong: number;
  /** The sentences read wrongly or asked back, with what the reader made of them. */
  misses: Array<{ sentence: string; verdict: Verdict; reading: Reading }>;
}

export function tally(
  corpus: ReadonlyArray<readonly [string, Expected, Expected?]>,
  read: (sentence: string) => Reading,
): Tally {
  const result: Tally = { correct: 0, asks: 0, wrong: 0, misses: [] };
  for (const [sentence, expected, or] of corpus) {
    const reading = read(sentence);
    const first = judge(reading, expected);
    const verdict =
      first !== 'correct' && or !== undefined && judge(reading, or) === 'correct'
        ? 'correct'
        : first;
    result[verdict] += 1;
    if (verdict !== 'correct') result.misses.push({ sentence, verdict, reading });
  }
  return result;
}
