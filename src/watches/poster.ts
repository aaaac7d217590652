/**
 * How the watches reach Slack: a narrow port over `chat.postMessage` and `chat.update`, and
 * the one place that decides which Slack refusals are permanent (switch the watch off) and
 * which are worth another try later (the alert stays owed).
 *
 * The WebClient handed to `slackPoster` should be built for background work:
 * `rejectRateLimitedCalls: true` and few retries. The default client retries a 429 for up to
 * about 30 minutes, which would stall every other channel's alert behind one busy channel.
 */
import type { WebClient } from '@slack/web-api';
import { outgoing } from '../views/format.js';
import type { SlackMessage } from '../views/message.js';

export interface WatchPoster {
  /**
   * Posts in a channel (or a user id: the app's direct message with them). Returns its ts.
   * `threadTs`: a reply in that message's thread, not broadcast to the channel.
   */
  post(channel: string, message: SlackMessage, threadTs?: string): Promise<{ ts: string }>;
  update(channel: string, ts: string, message: SlackMessage): Promise<void>;
  /** Deletes one of the app's own messages (a confirmation whose watch could not be saved). */
  delete(channel: string, ts: string): Promise<void>;
}

/** Slack errors after which posting there will never work again without someone acting. */
const PERMANENT_SLACK_ERRORS: ReadonlySet<string> = new Set([
  'channel_not_found',
  'is_archived',
  'not_in_channel',
  'account_inactive',
  'token_revoked',
  'invalid_auth',
  'no_permission',
  'restricted_action',
  'team_access_not_granted',
  'missing_scope',
  'ekm_access_denied',
]);

/** A Slack refusal, with Slack's error code (never the message text: it may echo input). */
export class PostError extends Error {
  readonly code = 'watch_post_failed';
  constructor(
    readonly slackError: string,
    options: { cause?: unknown } = {},
  ) {
    super(`Slack refused the post: ${slackError}`, options);
    this.name = 'PostError';
  }

  get permanent(): boolean {
    return PERMANENT_SLACK_ERRORS.has(this.slackError);
  }
}

/** `message_not_found` on an update: the alert was deleted; the watch carries on. */
export function slackErrorOf(error: unknown): string {
  if (error instanceof PostError) return error.slackError;
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  if (typeof data?.error === 'string') return data.error;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unknown';
}

export function slackPoster(client: WebClient): WatchPoster {
  const wrap = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw new PostError(slackErrorOf(error), { cause: error });
    }
  };
  return {
    async post(channel, message, threadTs) {
      const result = await wrap(() =>
        client.chat.postMessage({
          channel,
          ...outgoing(message),
          unfurl_links: false,
          ...(threadTs === undefined ? {} : { thread_ts: threadTs, reply_broadcast: false }),
        }),
      );
      if (typeof result.ts !== 'string') throw new PostError('no_ts');
      return { ts: result.ts };
    },
    async update(channel, ts, message) {
      await wrap(() => client.chat.update({ channel, ts, ...outgoing(message) }));
    },
    async delete(channel, ts) {
      await wrap(() => client.chat.delete({ channel, ts }));
    },
  };
}
