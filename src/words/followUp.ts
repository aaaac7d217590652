/**
 * Follow-ups: "and in sydney?", "what about melbourne?", "and 80?", "same for FST-M8-25?" leave
 * out what the conversation's last answered question said. `readFollowUp` reads what such a
 * sentence changes; `followUpOf` puts it on the last question. Pure; the memory of the last
 * question is the caller's (src/slack/words/followUps.ts).
 */
import { type Marks, readBranch, readQuantity } from './parts.js';
import { readSentence } from './reader.js';
import type { WordsIndex, WordsRequest } from './reading.js';
import { tokenize } from './tokens.js';

/** How a follow-up starts: what it leaves out is the last question's. */
const OPENINGS: readonly (readonly string[])[] = [
  ['what', 'about'],
  ['how', 'about'],
  ['what', 'abt'],
  ['same', 'for'],
  ['same', 'in'],
  ['same', 'at'],
  ['and'],
  ['also'],
];

type ItemRequest = Extract<WordsRequest, { kind: 'item' }>;

/** What a follow-up changes of the last question; undefined: not a follow-up. */
export interface FollowUp {
  code?: string;
  quantity?: number;
  branchWords: string[];
}

export function readFollowUp(sentence: string, index: WordsIndex): FollowUp | undefined {
  const tokens = tokenize(sentence);
  const words = tokens.map((token) => token.word);
  const opening = OPENINGS.find((start) => start.every((word, i) => words[i] === word));
  if (opening === undefined || tokens.length === opening.length) return undefined;
  const rest = tokens.slice(opening.length);
  const restText = rest.map((token) => token.raw).join(' ');
  // `same for FST-M8-25`: a code of its own, its quantity and branch if it says them.
  const read = readSentence(restText, index);
  if (read.kind === 'request' && read.request.kind === 'item') {
    const { code, quantity, branchWords } = read.request;
    return { code, ...(quantity === undefined ? {} : { quantity }), branchWords };
  }
  if (read.kind === 'request') return undefined;
  const used: Marks = rest.map(() => false);
  const quantity = readQuantity(rest, used);
  if (quantity === 'several') return undefined;
  const branchWords = readBranch(rest, used, index.branchNames(), true);
  if (quantity === undefined && branchWords.length === 0) return undefined;
  return { ...(quantity === undefined ? {} : { quantity }), branchWords };
}

/** The last question with what the follow-up changes: the rest stays as it was asked. */
export function followUpOf(last: ItemRequest, change: FollowUp): ItemRequest {
  // `same for FST-M8-25`: the same question of another item, its quantity and branch kept.
  const quantity = change.quantity ?? last.quantity;
  return {
    kind: 'item',
    code: change.code ?? last.code,
    ...(quantity === undefined ? {} : { quantity }),
    branchWords: change.branchWords.length > 0 ? change.branchWords : last.branchWords,
  };
}
