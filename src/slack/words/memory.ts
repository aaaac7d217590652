/**
 * Where each conversation's last question is kept for its follow-ups (src/slack/words/
 * followUps.ts reads and writes it): this process's memory, or Redis for every replica.
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { WordsRequest } from '../../words/reading.js';

/** How long a conversation's last question serves its follow-ups. */
export const FOLLOW_UP_MS = 10 * 60_000;
/** Conversations remembered at once in memory: each entry is one small request. */
const MAX_CONVERSATIONS = 10_000;

type ItemRequest = Extract<WordsRequest, { kind: 'item' }>;

/** Where the last questions are kept: this process, or Redis for every replica. */
export interface ConversationMemory {
  remember(conversation: string, request: ItemRequest): Promise<void>;
  recall(conversation: string): Promise<ItemRequest | undefined>;
}

/** This process's memory of the last questions. */
export class MemoryConversations implements ConversationMemory {
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

  async remember(conversation: string, request: ItemRequest): Promise<void> {
    this.last.set(conversation, request);
  }

  async recall(conversation: string): Promise<ItemRequest | undefined> {
    return this.last.get(conversation);
  }
}

const words = z.array(z.string().max(100)).max(40);

/** What Redis gives back is read like any boundary: another version may have written it. */
const StoredRequest = z.object({
  kind: z.literal('item'),
  code: z.string().min(1).max(100),
  quantity: z.number().finite().positive().optional(),
  branchWords: words,
  qualifiers: words.optional(),
});

/**
 * The last questions in Redis (`SET … PX`, ten minutes), shared by every replica. A Redis that
 * does not answer never stops an answer: this replica's memory keeps and reads them then.
 */
export class RedisConversations implements ConversationMemory {
  private readonly local: MemoryConversations;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly onRedisError?: (error: unknown) => void,
    now?: () => number,
  ) {
    this.local = new MemoryConversations(now);
  }

  async remember(conversation: string, request: ItemRequest): Promise<void> {
    await this.local.remember(conversation, request);
    try {
      await this.redis.set(this.key(conversation), JSON.stringify(request), 'PX', FOLLOW_UP_MS);
    } catch (error) {
      this.onRedisError?.(error);
    }
  }

  async recall(conversation: string): Promise<ItemRequest | undefined> {
    let stored: string | null;
    try {
      stored = await this.redis.get(this.key(conversation));
    } catch (error) {
      this.onRedisError?.(error);
      return this.local.recall(conversation);
    }
    if (stored === null) return undefined;
    try {
      const parsed = StoredRequest.safeParse(JSON.parse(stored));
      return parsed.success ? (parsed.data as ItemRequest) : undefined;
    } catch {
      return undefined;
    }
  }

  private key(conversation: string): string {
    return `${this.keyPrefix}words:last:${conversation}`;
  }
}

/** The memory for the composition root: Redis when configured, else this process's. */
export function conversationMemory(shared?: {
  redis: Redis;
  keyPrefix: string;
  onRedisError?: (error: unknown) => void;
}): ConversationMemory {
  return shared
    ? new RedisConversations(shared.redis, shared.keyPrefix, shared.onRedisError)
    : new MemoryConversations();
}
