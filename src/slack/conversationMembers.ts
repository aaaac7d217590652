/**
 * Who is in a conversation, before the app posts into one a person chose (the Watch… modal's
 * channel, the search modal's share): the person must be a member, and so must the app; a
 * direct message is only ever the person's own with the app (another person's has that person
 * and the app as its members, never the one who asks).
 *
 * conversations.members, paged, cached briefly per conversation: a burst of submissions costs
 * one call, and someone who left a channel cannot post into it for longer than the cache.
 * Every doubt (an error, a conversation the app cannot see, a list too long to read) is "no":
 * this guards where the app speaks.
 */
import type { WebClient } from '@slack/web-api';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { ConversationRefusal } from '../views/conversationRefusals.js';
import { UserId } from './ids.js';

/** The reasons are the refusal view's, which words each one for the person. */
type MayPost = { ok: true } | { ok: false; reason: ConversationRefusal };

/** A channel of this many members is read in full; a larger one is refused as unknown. */
const MAX_PAGES = 10;
const PAGE_SIZE = 1000;
const CACHE_TTL_MS = 60_000;

const MembersPage = z.object({
  ok: z.literal(true),
  members: z.array(z.string()),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});

export interface ConversationMembers {
  /** Whether the app may post, for `userId`, into `channelId`. */
  mayPost(
    client: Pick<WebClient, 'conversations'>,
    channelId: string,
    userId: string,
    botUserId: string | undefined,
  ): Promise<MayPost>;
}

export function conversationMembers(options: { ttlMs?: number } = {}): ConversationMembers {
  const cache = new LRUCache<string, ReadonlySet<string> | 'unknown'>({
    max: 1000,
    ttl: options.ttlMs ?? CACHE_TTL_MS,
  });
  const read = async (
    client: Pick<WebClient, 'conversations'>,
    channel: string,
  ): Promise<ReadonlySet<string> | 'unknown'> => {
    const members = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer = MembersPage.safeParse(
        await client.conversations
          .members({ channel, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) })
          .catch(() => undefined),
      );
      if (!answer.success) return 'unknown';
      for (const member of answer.data.members) members.add(member);
      cursor = answer.data.response_metadata?.next_cursor || undefined;
      if (cursor === undefined) return members;
    }
    return 'unknown';
  };
  return {
    async mayPost(client, channelId, userId, botUserId) {
      if (!UserId.safeParse(userId).success || botUserId === undefined) {
        return { ok: false, reason: 'unknown' };
      }
      let members = cache.get(channelId);
      if (members === undefined) {
        members = await read(client, channelId);
        cache.set(channelId, members);
      }
      if (members === 'unknown') return { ok: false, reason: 'unknown' };
      if (!members.has(userId)) return { ok: false, reason: 'not_member' };
      if (!members.has(botUserId)) return { ok: false, reason: 'app_not_member' };
      return { ok: true };
    },
  };
}
