/**
 * The app's own record of what it shared into a conversation, and the short memory that makes a
 * repeated Share post once (SECURITY.md, "Shared messages").
 *
 * A share's Remove button carries only the share's id. Who shared it (and from which
 * workspace), where it went, the message's ts when Slack told us (chat.postMessage does, a
 * response_url does not) and the sharer's confirmation response_url are kept here, so that
 * Remove is decided from what the app itself did, never from a button value or a payload.
 *
 * With REDIS_URL the records and the repeat claims live in Redis (every replica answers, keys
 * expire by themselves); without, in this process's memory (lru-cache), lost at a restart.
 * A Redis that does not answer falls back to this process's memory, so a share still posts
 * and can still be removed from the replica that made it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { AppLogger } from '../log/logger.js';
import type { SlackMessage } from '../views/message.js';
import { ChannelId, MessageTs, TeamId, UserId } from './ids.js';
import type { BlockActionPayload } from './payloads.js';
import { createResponseUrlGuard } from './transport/responseUrls.js';

/** How long a share can be removed with its button; after that an admin deletes it. */
export const SHARE_RECORD_TTL_MS = 30 * 24 * 60 * 60_000;
/** The same Share pressed again within this window posts nothing more. */
export const REPEAT_WINDOW_MS = 5 * 60_000;

/** What the app knows of one share; read back through zod (a Redis value is input too). */
export const ShareRecord = z.object({
  /** The person who pressed Share: the only one whose Remove removes it. */
  sharer: UserId,
  /** The sharer's own workspace (`user.team_id`), when the payload named it. */
  team: TeamId.optional(),
  /** The conversation it was posted in. */
  channel: ChannelId.optional(),
  /** The posted message's ts, when Slack returned one (chat.postMessage). */
  ts: MessageTs.optional(),
  /** The sharer's "Shared to #…" confirmation, replaced once the share is removed. */
  confirmUrl: z.url().max(2000).optional(),
});
export type ShareRecord = z.infer<typeof ShareRecord>;

export interface Shares {
  /** A new share id, for the Remove button of a message about to be posted. */
  newId(): string;
  /** Keeps the record of a share that was posted. Never throws. */
  save(id: string, record: ShareRecord): Promise<void>;
  /** The record of a share, or `undefined` when there is none (expired, forged, lost). */
  find(id: string): Promise<ShareRecord | undefined>;
  /** Forgets a share once it was removed. Never throws. */
  forget(id: string): Promise<void>;
  /**
   * True for the first press of one Share (the parts name who pressed what, on which message)
   * within REPEAT_WINDOW_MS; false for every later one. Never throws.
   */
  firstPress(parts: readonly string[]): Promise<boolean>;
  /** Lets the same Share be pressed again (the first one posted nothing). Never throws. */
  release(parts: readonly string[]): Promise<void>;
  /**
   * Replaces the message behind a recorded response_url (the sharer's confirmation). Sent only
   * where a payload's response_url may go (transport/responseUrls.ts); false when it was not
   * delivered (expired after 30 minutes or 5 uses, refused). Never throws.
   */
  replaceAt(url: string, message: SlackMessage): Promise<boolean>;
  /**
   * The SLACK_API_URL of the transport the listeners answer on (the console's fake Slack is not
   * the configured one): response_urls may point at its origin when it is not Slack's own.
   */
  useApiUrl(apiUrl: string): void;
}

export interface SharesOptions {
  logger: AppLogger;
  /** SLACK_API_URL until `useApiUrl` says otherwise. */
  apiUrl: string;
  /** Shared mode: records and repeat claims for every replica. */
  redis?: Redis;
  /** Before every Redis key (`erp-lookups:`). */
  keyPrefix?: string;
  /** The transport for response_urls; `globalThis.fetch` by default (tests inject theirs). */
  fetch?: typeof fetch;
  /** Milliseconds clock for the memory store's expiry; `performance.now` by default. */
  now?: () => number;
}

/** The claim key of one press: its parts hashed, so no id or value sits in Redis in clear. */
const pressKey = (parts: readonly string[]) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url');

export function createShares(options: SharesOptions): Shares {
  const { logger, redis } = options;
  const prefix = `${options.keyPrefix ?? ''}shares:`;
  const clock = options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {};
  const records = new LRUCache<string, ShareRecord>({
    max: 10_000,
    ttl: SHARE_RECORD_TTL_MS,
    ...clock,
  });
  const presses = new LRUCache<string, true>({ max: 10_000, ttl: REPEAT_WINDOW_MS, ...clock });
  const guardFor = (apiUrl: string) =>
    createResponseUrlGuard({
      apiUrl,
      logger,
      // The guard logs each refusal itself; the counter is the Bolt app's, for payload URLs.
      onRefused: () => {},
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  let guard = guardFor(options.apiUrl);
  const redisFailed = (error: unknown, what: string) =>
    logger.warn(
      { reason: error instanceof Error ? error.name : 'unknown' },
      `shares: Redis could not ${what}; this replica's memory decides`,
    );

  /** A write to Redis, when there is one; a failure is logged and memory stands in. */
  const inRedis = async (what: string, write: (r: Redis) => Promise<unknown>) => {
    if (!redis) return;
    try {
      await write(redis);
    } catch (error) {
      redisFailed(error, what);
    }
  };

  return {
    newId: () => randomBytes(16).toString('base64url'),

    async save(id, record) {
      records.set(id, record);
      await inRedis('keep a share', (r) =>
        r.set(`${prefix}record:${id}`, JSON.stringify(record), 'PX', SHARE_RECORD_TTL_MS),
      );
    },

    async find(id) {
      if (redis) {
        try {
          // Redis is the truth while it answers: a share removed on another replica is gone.
          const stored = await redis.get(`${prefix}record:${id}`);
          return stored === null ? undefined : readRecord(stored);
        } catch (error) {
          redisFailed(error, 'read a share');
        }
      }
      return records.get(id);
    },

    async forget(id) {
      records.delete(id);
      await inRedis('forget a share', (r) => r.del(`${prefix}record:${id}`));
    },

    async firstPress(parts) {
      const key = pressKey(parts);
      if (presses.has(key)) return false;
      presses.set(key, true);
      if (!redis) return true;
      try {
        return (
          (await redis.set(`${prefix}press:${key}`, '1', 'PX', REPEAT_WINDOW_MS, 'NX')) === 'OK'
        );
      } catch (error) {
        redisFailed(error, 'claim a press');
        return true;
      }
    },

    async release(parts) {
      const key = pressKey(parts);
      presses.delete(key);
      await inRedis('release a press', (r) => r.del(`${prefix}press:${key}`));
    },

    async replaceAt(url, message) {
      try {
        const response = await guard.fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            replace_original: true,
            text: message.text,
            blocks: message.blocks,
          }),
        });
        return response.ok;
      } catch (error) {
        // The URL is a bearer capability: never logged.
        logger.warn(
          { reason: error instanceof Error ? error.name : 'unknown' },
          'could not update a share confirmation',
        );
        return false;
      }
    },

    useApiUrl(apiUrl) {
      guard = guardFor(apiUrl);
    },
  };
}

/**
 * One press of Share on a card, as the repeat window knows it: who pressed which button (its
 * value says which item or contact, and which page of it) on which message. Pressed again, or
 * sent again by Slack, it is the same press.
 */
export function sharePress(body: BlockActionPayload): string[] {
  const action = body.actions[0];
  return [
    'card',
    body.user.id,
    body.channel?.id ?? '',
    body.container?.message_ts ?? '',
    action?.action_id ?? '',
    action?.value ?? '',
  ];
}

/**
 * Whether the person pressing Remove is the recorded sharer, from the same workspace when the
 * share's payload named one (a Slack Connect partner's `U…` id could equal a member's).
 */
export function isSharer(
  record: ShareRecord,
  presser: { userId: string; teamId: string | undefined },
): boolean {
  return (
    record.sharer === presser.userId &&
    (record.team === undefined || record.team === presser.teamId)
  );
}

function readRecord(stored: string): ShareRecord | undefined {
  try {
    const parsed = ShareRecord.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
