/**
 * Each message answered once. Slack delivers an event again when it did not see the
 * acknowledgement in time (`X-Slack-Retry-Num` over HTTP, `retry_attempt` in Socket Mode: Bolt
 * hands both over as `context.retryNum`); the listeners drop those, and this gate drops any
 * second delivery of the same message (its channel and timestamp) that arrives otherwise.
 * With Redis, the first replica to claim a message answers it; without, this process.
 */
import type { Redis } from 'ioredis';
import { type OnceGate, onceGate } from '../../ops/onceGate.js';

/** Slack retries within minutes; a claim outlives them. */
const CLAIM_MS = 10 * 60_000;

/**
 * The messages' gate, shared by the replicas when `shared` names Redis. Each replica asks its
 * own memory first, so a delivery it has seen again costs no round trip; when Redis cannot
 * answer, this replica's own memory decides.
 */
export function messageGate(shared?: { redis: Redis; keyPrefix: string }): OnceGate {
  return onceGate({
    ttlMs: CLAIM_MS,
    memoryFirst: true,
    ...(shared ? { redis: shared.redis, keyPrefix: `${shared.keyPrefix}words:once:` } : {}),
  });
}

/** The key of one message: its conversation and timestamp. */
export const messageKey = (channel: string, ts: string) => `${channel}:${ts}`;
