import { describe, expect, it } from 'vitest';
import {
  conversationKey,
  FOLLOW_UP_MS,
  MemoryConversations,
} from '../../src/slack/words/followUps.js';
import { followUpOf, readFollowUp } from '../../src/words/followUp.js';
import { sandboxIndex } from '../words/corpus.js';

const index = sandboxIndex();
const last = { kind: 'item' as const, code: 'WIDGET-9', quantity: 50, branchWords: ['perth'] };

describe('follow-ups of the last question', () => {
  it('takes what "and in sydney?", "and 80?" and "same for FST-M8-25?" leave out', () => {
    const sydney = readFollowUp('and in sydney?', index);
    expect(sydney && followUpOf(last, sydney)).toEqual({ ...last, branchWords: ['sydney'] });
    const melbourne = readFollowUp('what about melbourne?', index);
    expect(melbourne && followUpOf(last, melbourne)).toEqual({
      ...last,
      branchWords: ['melbourne'],
    });
    const eighty = readFollowUp('and 80?', index);
    expect(eighty && followUpOf(last, eighty)).toEqual({ ...last, quantity: 80 });
    const other = readFollowUp('same for FST-M8-25?', index);
    expect(other && followUpOf(last, other)).toEqual({ ...last, code: 'FST-M8-25' });
  });

  it('is no follow-up without an opening or without anything to change', () => {
    expect(readFollowUp('in sydney', index)).toBeUndefined();
    expect(readFollowUp('and', index)).toBeUndefined();
    expect(readFollowUp('and thanks', index)).toBeUndefined();
  });

  it('remembers a conversation for ten minutes, each conversation its own', async () => {
    let now = 1_000;
    const memory = new MemoryConversations(() => now);
    const dm = conversationKey('D1', undefined);
    await memory.remember(dm, last);
    expect(await memory.recall(conversationKey('C1', '1.2'))).toBeUndefined();
    now += FOLLOW_UP_MS - 1;
    expect(await memory.recall(dm)).toEqual(last);
    now += 2;
    expect(await memory.recall(dm)).toBeUndefined();
  });
});
