/**
 * The last answered question of each conversation (a direct message, or a thread), kept for
 * ten minutes so that a follow-up ("and in sydney?") can take what it leaves out from it. Kept
 * by the app itself: in this process's memory (lru-cache, bounded, with its own clock for
 * tests), or in Redis when REDIS_URL is set, so that a follow-up answered by another replica
 * than its question's is read all the same; never read back from Slack's history, which Slack
 * limits to one call a minute for apps outside its Marketplace.
 */
import { followUpOf, readFollowUp } from '../../words/followUp.js';
import type { Reading } from '../../words/reading.js';
import type { ItemDeps, WordsDeps } from '../deps.js';
import { type ConversationMemory, MemoryConversations } from './memory.js';
import { readWords, wordsIndexOf } from './read.js';

export {
  type ConversationMemory,
  conversationMemory,
  FOLLOW_UP_MS,
  MemoryConversations,
  RedisConversations,
} from './memory.js';

const memories = new WeakMap<object, ConversationMemory>();

/** The app's memory (its words deps), or one made on first use for deps that bring none. */
function memoryOf(deps: WordsDeps): ConversationMemory | undefined {
  const owner = deps.words;
  if (owner === undefined) return undefined;
  if (owner.memory) return owner.memory;
  let memory = memories.get(owner);
  if (!memory) {
    memory = new MemoryConversations();
    memories.set(owner, memory);
  }
  return memory;
}

/** A conversation's key: the channel, and the thread when the sentence was in one. */
export const conversationKey = (channel: string, threadTs: string | undefined) =>
  `${channel}:${threadTs ?? ''}`;

/**
 * The sentence read in its conversation: a question about one item is remembered; a sentence
 * that reads as no question but as a follow-up of the remembered one becomes that question
 * with what it changes.
 */
export async function readInConversation(
  deps: Pick<ItemDeps, 'catalogue'> & WordsDeps,
  text: string,
  conversation: string,
  memory: ConversationMemory | undefined = memoryOf(deps),
): Promise<Reading> {
  const reading = readWords(deps, text);
  if (memory === undefined) return reading;
  const last = await memory.recall(conversation);
  const change = last === undefined ? undefined : readFollowUp(text, wordsIndexOf(deps));
  const asksOneItem = reading.kind !== 'request' || reading.request.kind === 'item';
  if (last !== undefined && change !== undefined && asksOneItem) {
    const request = followUpOf(last, change);
    await memory.remember(conversation, request);
    return { kind: 'request', request };
  }
  if (reading.kind === 'request' && reading.request.kind === 'item') {
    await memory.remember(conversation, reading.request);
  }
  return reading;
}
