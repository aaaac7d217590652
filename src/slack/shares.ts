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
 * and can still be removed from the replica that made it (also once Redis answers again: a
 * record Redis never took is read from memory). The confirmation's response_url is kept apart
 * with its own 30-minute expiry, Slack's own limit for it: past that it is of no use to anyone.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { AppLogger } from '../log/logger.js';
import { onceGate } from '../ops/onceGate.js';
import { outgoing } from '../views/format.js';
import type { SlackMessage } from '../views/message.js';
import { ChannelId, MessageTs, TeamId, UserId } from './ids.js';
import type { BlockActionPayload } from './payloads.js';
import { createResponseUrlGuard } from './transport/responseUrls.js';

/** How long a share can be removed with its button; after that an admin deletes it. */
const SHARE_RECORD_TTL_MS = 30 * 24 * 60 * 60_000;
/** The same Share pressed again within this window posts nothing more. */
export const REPEAT_WINDOW_MS = 5 * 60_000;
/** How long Slack honours a response_url: the recorded confirmation URL is dropped after. */
export const CONFIRM_URL_TTL_MS = 30 * 60_000;

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

interface SharesOptions {
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
  /** `inRedis`: Redis took it too, so Redis (while it answers) says whether it still exists. */
  const records = new LRUCache<string, { record: StoredRecord; inRedis: boolean }>({
    max: 10_000,
    ttl: SHARE_RECORD_TTL_MS,
    ...clock,
  });
  const confirmUrls = new LRUCache<string, string>({
    max: 10_000,
    ttl: CONFIRM_URL_TTL_MS,
    ...clock,
  });
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

  // Redis decides alone while it answers: a claim another replica released is free at once.
  const presses = onceGate({
    ttlMs: REPEAT_WINDOW_MS,
    ...(redis ? { redis, keyPrefix: `${prefix}press:` } : {}),
    onRedisError: (error, doing) => redisFailed(error, `${doing} a press`),
    ...(options.now ? { now: options.now } : {}),
  });

  /** A write to Redis, when there is one; false (logged) when it failed or there is none. */
  const inRedis = async (what: string, write: (r: Redis) => Promise<unknown>) => {
    if (!redis) return false;
    try {
      await write(redis);
      return true;
    } catch (error) {
      redisFailed(error, what);
      return false;
    }
  };

  /** The record as Redis has it, `null` when Redis has none, `undefined` when it failed. */
  const fromRedis = async (r: Redis, id: string) => {
    try {
      const [stored, url] = await Promise.all([
        r.get(`${prefix}record:${id}`),
        r.get(`${prefix}confirm:${id}`),
      ]);
      if (stored === null) return null;
      const record = readRecord(stored);
      return record && withConfirmUrl(record, url ?? undefined);
    } catch (error) {
      redisFailed(error, 'read a share');
      return undefined;
    }
  };

  const fromMemory = (id: string, onlyUnsaved: boolean): ShareRecord | undefined => {
    const kept = records.get(id);
    if (!kept || (onlyUnsaved && kept.inRedis)) return undefined;
    return withConfirmUrl(kept.record, confirmUrls.get(id));
  };

  return {
    newId: () => randomBytes(16).toString('base64url'),

    async save(id, record) {
      const { confirmUrl, ...kept } = record;
      if (confirmUrl) confirmUrls.set(id, confirmUrl);
      records.set(id, { record: kept, inRedis: false });
      const saved = await inRedis('keep a share', async (r) => {
        await r.set(`${prefix}record:${id}`, JSON.stringify(kept), 'PX', SHARE_RECORD_TTL_MS);
        if (confirmUrl) await r.set(`${prefix}confirm:${id}`, confirmUrl, 'PX', CONFIRM_URL_TTL_MS);
      });
      if (saved) records.set(id, { record: kept, inRedis: true });
    },

    async find(id) {
      const shared = redis ? await fromRedis(redis, id) : undefined;
      if (shared) return shared;
      // Redis has none: a share removed on another replica is gone, unless Redis never took it
      // (it was down when the share was saved), and then this replica's memory is all there is.
      return fromMemory(id, shared === null);
    },

    async forget(id) {
      records.delete(id);
      confirmUrls.delete(id);
      await inRedis('forget a share', (r) =>
        r.del(`${prefix}record:${id}`, `${prefix}confirm:${id}`),
      );
    },

    firstPress: (parts) => presses.claim(pressKey(parts)),

    release: (parts) => presses.release(pressKey(parts)),

    async replaceAt(url, message) {
      try {
        const response = await guard.fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            replace_original: true,
            ...outgoing(message),
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

/** A record as kept: the confirmation URL lives apart, with its own expiry. */
type StoredRecord = Omit<ShareRecord, 'confirmUrl'>;

const withConfirmUrl = (record: StoredRecord, url: string | undefined): ShareRecord => {
  const confirmUrl = url === undefined ? undefined : ShareRecord.shape.confirmUrl.safeParse(url);
  return confirmUrl?.success && confirmUrl.data
    ? { ...record, confirmUrl: confirmUrl.data }
    : record;
};

function readRecord(stored: string): StoredRecord | undefined {
  try {
    const parsed = ShareRecord.omit({ confirmUrl: true }).safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
