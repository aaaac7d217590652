/**
 * The last answered question of each conversation (a direct message, or a thread), kept for
 * ten minutes so that a follow-up ("and in sydney?") can take what it leaves out from it. Kept
 * by the app itself, in memory (lru-cache, bounded, with its own clock for tests); never read
 * back from Slack's history, which Slack limits to one call a minute for apps outside its
 * Marketplace.
 */
import { LRUCache } from 'lru-cache';
import { followUpOf, readFollowUp } from '../../words/followUp.js';
import type { Reading, WordsRequest } from '../../words/reading.js';
import type { ItemDeps, WordsDeps } from '../deps.js';
import { readWords, wordsIndexOf } from './read.js';

/** How long a conversation's last question serves its follow-ups. */
export const FOLLOW_UP_MS = 10 * 60_000;
/** Conversations remembered at once: each entry is one small request. */
const MAX_CONVERSATIONS = 10_000;

type ItemRequest = Extract<WordsRequest, { kind: 'item' }>;

export class ConversationMemory {
  private readonly last: LRUCache<string, ItemRequest>;

  /** `now`: the clock, in milliseconds (tests pass a fake one). */
  constructor(now: () => number = () => performance.now()) {
    this.last = new LRUCache<string, ItemRequest>({
      max: MAX_CONVERSATIONS,
      ttl: FOLLOW_UP_MS,
      ttlAutopurge: false,
      // Read the clock on every get: a fake clock in tests, and no timer kept by the cache.
      ttlResolution: 0,
      perf: { now },
    });
  }

  remember(conversation: string, request: ItemRequest): void {
    this.last.set(conversation, request);
  }

  recall(conversation: string): ItemRequest | undefined {
    return this.last.get(conversation);
  }
}

const memories = new WeakMap<object, ConversationMemory>();

/** One memory per app (its words deps), made on first use. */
function memoryOf(deps: WordsDeps): ConversationMemory | undefined {
  const owner = deps.words;
  if (owner === undefined) return undefined;
  let memory = memories.get(owner);
  if (!memory) {
    memory = new ConversationMemory();
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
export function readInConversation(
  deps: Pick<ItemDeps, 'catalogue'> & WordsDeps,
  text: string,
  conversation: string,
  memory: ConversationMemory | undefined = memoryOf(deps),
): Reading {
  const reading = readWords(deps, text);
  if (memory === undefined) return reading;
  const last = memory.recall(conversation);
  const change = last === undefined ? undefined : readFollowUp(text, wordsIndexOf(deps));
  const asksOneItem = reading.kind !== 'request' || reading.request.kind === 'item';
  if (last !== undefined && change !== undefined && asksOneItem) {
    const request = followUpOf(last, change);
    memory.remember(conversation, request);
    return { kind: 'request', request };
  }
  if (reading.kind === 'request' && reading.request.kind === 'item') {
    memory.remember(conversation, reading.request);
  }
  return reading;
}
