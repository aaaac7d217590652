/**
 * What the sentence reader makes of a sentence (src/words/reader.ts), and what it may ask the
 * catalogue index while reading. Nothing here knows Slack or the ERP: a reading is the request
 * a command would make, a question back with up to three candidates, or "not understood".
 * The candidates and the reasons are the view's types (src/views/words.ts), which says them.
 */
import type { Candidate, NotUnderstoodReason } from '../views/words.js';

export type WatchDirection = 'below' | 'above';

/** An account named by code (`ACME01`) or by words of its name (`acme industrial`). */
export type AccountRef = { code: string } | { words: string[] };

/** The request a command would make for the sentence. */
export type WordsRequest =
  | { kind: 'help' }
  /** `/stock CODE [N] [branch words]`: the card, or a verdict first with a quantity. */
  | {
      kind: 'item';
      code: string;
      quantity?: number;
      branchWords: string[];
      /**
       * Words right after the code that may be part of the item's name (`widget-9 bracket`)
       * and that the index could not settle: the command resolves the phrase.
       */
      qualifiers?: string[];
    }
  /** "price of WIDGET-9": the card with the item's sell price first. */
  | { kind: 'price'; code: string }
  /** `/stock A, B` (`/stock A 20, B 5 at brisbane`): one line each, a verdict when asked. */
  | { kind: 'codes'; codes: string[]; question?: CodesQuestion }
  /** `/contact …`: the account, with only the people matching `peopleWords` when given. */
  | {
      kind: 'contact';
      account: AccountRef;
      peopleWords: string[];
      /** "is ACME01 on stop credit?": the answer leads with that line (Yes or No). */
      ask?: 'stop_credit';
    }
  /** Proposed, never set without a click. */
  | WatchRequest
  /** "what are we watching?": this conversation's watches, as `/stock watches` lists them. */
  | { kind: 'watches' }
  /** "stop watching WIDGET-9": offered (a button with a confirm), never removed unasked. */
  | { kind: 'unwatch'; code: string; branchWords: string[] }
  /** "can we build 10 PLANT-88?": `/stock PLANT-88 build 10 [at BRANCH]`. */
  | { kind: 'build'; code: string; quantity: number; branchWords: string[] };

/**
 * What several codes asked besides themselves: each its own quantity (by position, undefined
 * for none) and the question's one branch: "20 FST-M8-25 and 5 WIDGET-9 from brisbane".
 */
export interface CodesQuestion {
  quantities: ReadonlyArray<number | undefined>;
  branchWords: readonly string[];
}

/** `/stock watch CODE below|above N [at BRANCH]`, as `/stock` reads it too. */
export interface WatchRequest {
  kind: 'watch';
  code: string;
  direction: WatchDirection;
  threshold: number;
  branchWords: string[];
}

/** A code found in a sentence; `near` when the index does not know it but knows close ones. */
export interface CodeHit {
  at: number;
  /** The last token the code covers: past `at` when written loosely (`fst m8 25`). */
  to: number;
  code: string;
  /** The index knows this code as written (case, accents and separators aside). */
  known: boolean;
  near: string[];
}

export type Reading =
  | { kind: 'request'; request: WordsRequest }
  /**
   * Not sure which item: several match the words, or the code typed is not known and these
   * are the nearest. The buttons answer the rest of the question (`quantity`, `branchWords`).
   */
  | {
      kind: 'not_sure';
      reason: 'several_items' | 'near_codes';
      typed: string;
      candidates: Candidate[];
      /** How many items matched the words, when more than the candidates shown. */
      total?: number;
      quantity?: number;
      branchWords: string[];
    }
  | { kind: 'not_understood'; reason: NotUnderstoodReason; words?: string[] };

/** What the reader may ask the catalogue index (never the ERP). */
export interface WordsIndex {
  /** The code as the ERP spells it, when the index knows one equal but for case, accents, separators. */
  knownCode(piece: string): string | undefined;
  /** Known codes one or two typos from `piece`, nearest first. */
  nearestCodes(piece: string, limit: number): string[];
  /** The description of a code the index knows. */
  describe(code: string): string | undefined;
  /** Items whose code or description holds every word (the ERP's own search rule). */
  itemsMatching(words: readonly string[], limit: number): { items: Candidate[]; total: number };
  /** The index holds the whole catalogue: an item it does not know does not exist. */
  complete(): boolean;
  /** Branch names seen on items (may be empty: branch words are then read by position). */
  branchNames(): readonly string[];
}

/** An index that knows nothing yet (a fresh start, or no catalogue): codes are read as typed. */
export const EMPTY_WORDS_INDEX: WordsIndex = {
  knownCode: () => undefined,
  nearestCodes: () => [],
  describe: () => undefined,
  itemsMatching: () => ({ items: [], total: 0 }),
  complete: () => false,
  branchNames: () => [],
};

/** At most this many candidates: one row of buttons. */
export const MAX_CANDIDATES = 3;

/**
 * The `/stock` or `/contact` text that makes the same request, for the command's own grammar
 * to read: undefined for a contact asked by account words with people words (no one command
 * text says which words are the account).
 */
export function commandFor(
  request: WordsRequest,
): { command: '/stock' | '/contact'; text: string } | undefined {
  switch (request.kind) {
    case 'help':
      return { command: '/stock', text: 'help' };
    case 'item': {
      const quantity = request.quantity === undefined ? [] : [String(request.quantity)];
      return {
        command: '/stock',
        text: [
          request.code,
          ...(request.qualifiers ?? []),
          ...quantity,
          ...request.branchWords,
        ].join(' '),
      };
    }
    case 'price':
      return { command: '/stock', text: request.code };
    case 'codes':
      return { command: '/stock', text: codesText(request.codes, request.question) };
    case 'watch': {
      const branch = request.branchWords.length > 0 ? ['at', ...request.branchWords] : [];
      const parts = [
        'watch',
        request.code,
        request.direction,
        String(request.threshold),
        ...branch,
      ];
      return { command: '/stock', text: parts.join(' ') };
    }
    case 'watches':
      return { command: '/stock', text: 'watches' };
    case 'build': {
      const branch = request.branchWords.length > 0 ? ['at', ...request.branchWords] : [];
      const parts = [request.code, 'build', String(request.quantity), ...branch];
      return { command: '/stock', text: parts.join(' ') };
    }
    case 'unwatch': {
      const branch = request.branchWords.length > 0 ? ['at', ...request.branchWords] : [];
      return { command: '/stock', text: ['unwatch', request.code, ...branch].join(' ') };
    }
    case 'contact': {
      const { account, peopleWords } = request;
      if ('code' in account) {
        return { command: '/contact', text: [account.code, ...peopleWords].join(' ') };
      }
      if (peopleWords.length > 0) return undefined;
      return { command: '/contact', text: account.words.join(' ') };
    }
  }
}

/** `A 20, B 5 at brisbane`: the codes as `/stock` reads them back, each with its quantity. */
export function codesText(codes: readonly string[], question?: CodesQuestion): string {
  const parts = codes.map((code, i) => {
    const quantity = question?.quantities[i];
    return quantity === undefined ? code : `${code} ${quantity}`;
  });
  const branch = question?.branchWords.length ? ` at ${question.branchWords.join(' ')}` : '';
  return `${parts.join(', ')}${branch}`;
}
