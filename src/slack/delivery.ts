/**
 * Timing, as the product promises: every command, click and shortcut is acknowledged within
 * 1.5 s whatever the ERP does; an answer that is ready by then rides on the acknowledgement;
 * an answer that takes longer than about 2 s is preceded by ONE short "working on it" line.
 *
 * Slack does not let a later answer replace the ephemeral reply to a slash command (only
 * messages that carry buttons can be replaced, through the response_url of a click). So a slow command gets an empty acknowledgement, at most one working line, and
 * the answer as a new ephemeral message. A slow click replaces its own message twice: first
 * with the working line, then with the answer.
 */
import type { RespondArguments, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { AppLogger } from '../log/logger.js';
import { outgoing } from '../views/format.js';
import type { SlackMessage } from '../views/message.js';
import { slackErrorCode } from './payloads.js';

export interface Timing {
  /** Acknowledge by then at the latest (Slack's limit is 3 s; the product promises 1.5 s). */
  ackWithinMs: number;
  /** Send the working line when the answer is not ready by then. */
  workingAfterMs: number;
}

// Both well inside their limits (the product's acknowledgement promise, Slack's 3 s), so a
// busy host still keeps them.
export const DEFAULT_TIMING: Timing = { ackWithinMs: 1000, workingAfterMs: 2000 };

type Settled<T> = { done: true; value: T } | { done: false };

/** Waits for `promise` at most `ms`; never rejects (answers are built never to reject). */
export function within<T>(promise: Promise<T>, ms: number): Promise<Settled<T>> {
  if (ms <= 0) return Promise.resolve({ done: false });
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ done: false }), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve({ done: true, value });
      },
      () => {
        clearTimeout(timer);
        resolve({ done: false });
      },
    );
  });
}

export type CommandAck = (message?: RespondArguments) => Promise<void>;

interface CommandDelivery {
  ack: CommandAck;
  respond: RespondFn;
  /** The answer; must not reject (errors are already messages). */
  answer: Promise<SlackMessage>;
  /** The working line, computed when it is needed (the reason may have changed). */
  working: () => SlackMessage;
  /** True when the wait is known to be long (queued behind the budget): say so with the ack. */
  knownToBeSlow: () => boolean;
  timing: Timing;
  logger: AppLogger;
}

/**
 * A message for the asker only: Slack's default, set explicitly as Slack recommends. Every
 * message the listeners send is shaped here or by `outgoing` (its fallback made safe).
 */
export const ephemeral = (message: SlackMessage): RespondArguments => ({
  response_type: 'ephemeral',
  ...outgoing(message),
});

/** A new message for the clicker only: it never replaces the message that was clicked. */
export const privateReply = (message: SlackMessage): RespondArguments => ({
  ...ephemeral(message),
  replace_original: false,
});

/** Answers a slash command or message shortcut within the timing rules above. */
export async function deliverCommandAnswer(delivery: CommandDelivery): Promise<void> {
  const { ack, respond, answer, timing, logger } = delivery;
  const quick = await within(answer, timing.ackWithinMs);
  if (quick.done) {
    await ack(ephemeral(quick.value));
    return;
  }
  if (delivery.knownToBeSlow()) {
    // Queued for a while: the working line can ride on the acknowledgement itself.
    await ack(ephemeral(delivery.working()));
    await sendSafely(logger, respond, ephemeral(await answer));
    return;
  }
  await ack();
  const soon = await within(answer, timing.workingAfterMs - timing.ackWithinMs);
  if (!soon.done) await sendSafely(logger, respond, ephemeral(delivery.working()));
  await sendSafely(logger, respond, ephemeral(await answer));
}

export type ClickMode =
  /** Replace the clicked message (paging, drill-down, refresh): it is the clicker's own. */
  | 'replace'
  /** A new ephemeral message for the clicker only (View, Reveal, clicks on shared cards). */
  | 'new';

interface ClickDelivery {
  respond: RespondFn;
  answer: Promise<SlackMessage>;
  working: () => SlackMessage;
  mode: ClickMode;
  timing: Timing;
  logger: AppLogger;
  /** A new message goes to this thread (the answer clicked sat in it). */
  threadTs?: string;
}

/** Answers a click (already acknowledged) in place or as a new ephemeral message. */
export async function deliverClickAnswer(delivery: ClickDelivery): Promise<void> {
  const { respond, answer, mode, timing, logger, threadTs } = delivery;
  const shape = (message: SlackMessage): RespondArguments =>
    mode === 'replace'
      ? { replace_original: true, ...outgoing(message) }
      : { ...privateReply(message), ...(threadTs === undefined ? {} : { thread_ts: threadTs }) };
  const soon = await within(answer, timing.workingAfterMs);
  if (!soon.done) await sendSafely(logger, respond, shape(delivery.working()));
  await sendSafely(logger, respond, shape(soon.done ? soon.value : await answer));
}

/**
 * A response_url can fail (expired after 30 min, used 5 times): log it without the URL (it
 * is a bearer capability) and carry on; there is nobody else to tell.
 */
export async function sendSafely(
  logger: AppLogger,
  respond: RespondFn,
  message: RespondArguments,
): Promise<boolean> {
  try {
    await respond(message);
    return true;
  } catch (error) {
    logger.warn({ err: describeRespondError(error) }, 'could not deliver a message to Slack');
    return false;
  }
}

function describeRespondError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    const statusCode = (error as { statusCode?: unknown }).statusCode;
    return { name: error.name, statusCode, message: error.message.replace(/https?:\S+/g, '[url]') };
  }
  return { message: 'unknown error' };
}

/**
 * A message from the app to one person, in its direct message with them (their Messages tab),
 * where a card's buttons work as usual. A failure is logged as `failure`, never thrown.
 */
export async function sendDirect(
  logger: AppLogger,
  client: Pick<WebClient, 'chat'>,
  userId: string,
  message: SlackMessage,
  failure: string,
): Promise<void> {
  await quietly(
    logger,
    () => client.chat.postMessage({ channel: userId, ...outgoing(message) }),
    failure,
  );
}

/**
 * A Web API call whose failure has nobody to tell: logged as `failure` with Slack's error
 * code (never the request, which may hold personal data), and undefined instead of a throw.
 */
export async function quietly<T>(
  logger: AppLogger,
  call: () => Promise<T>,
  failure: string,
): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    logger.warn({ reason: slackErrorCode(error) ?? 'error' }, failure);
    return undefined;
  }
}
