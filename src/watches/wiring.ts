/**
 * What the composition root needs around the watches: the Slack client they post with (bound
 * once the transport, and so the token and API address, is known), and the database's health
 * reported to readiness.
 */
import { webApi } from '@slack/bolt';
import type { AppLogger } from '../log/logger.js';
import type { DependencyState } from '../ops/readiness.js';
import type { SlackMessage } from '../views/message.js';
import { PostError, slackPoster, type WatchPoster } from './poster.js';

/** A poster whose Slack client is given later; until then every post is owed, not lost. */
export interface DeferredPoster extends WatchPoster {
  bind(token: string, apiUrl: string): void;
}

/**
 * Background posts must never wait out a 429 (the SDK default retries for about half an
 * hour, holding every other channel's alert behind one busy channel): refused at once, the
 * alert stays owed and the next tick tries again.
 */
function backgroundSlackClient(token: string, apiUrl: string): webApi.WebClient {
  return new webApi.WebClient(token, {
    slackApiUrl: apiUrl,
    rejectRateLimitedCalls: true,
    timeout: 10_000,
    retryConfig: { retries: 2, factor: 2, minTimeout: 250, maxTimeout: 2000 },
  });
}

export function deferredPoster(): DeferredPoster {
  let poster: WatchPoster | undefined;
  const bound = (): WatchPoster => {
    // Not a permanent refusal: a watch is never switched off because the app is still starting.
    if (poster === undefined) throw new PostError('not_connected');
    return poster;
  };
  return {
    bind(token, apiUrl) {
      poster = slackPoster(backgroundSlackClient(token, apiUrl));
    },
    post: (channel: string, message: SlackMessage, threadTs?: string) =>
      bound().post(channel, message, threadTs),
    update: (channel: string, ts: string, message: SlackMessage) =>
      bound().update(channel, ts, message),
    delete: (channel: string, ts: string) => bound().delete(channel, ts),
  };
}

/**
 * Reports the watch database to readiness while the app runs: nothing until watches are first
 * used (an app without them is not degraded by a database it never opened), then `database`
 * up or down at each look. The checker pauses by itself while the database is down.
 */
export function followDatabase(
  ready: () => Promise<true | string | undefined>,
  register: () => DependencyState,
  logger: AppLogger,
  everyMs = 10_000,
): { stop(): void } {
  let state: DependencyState | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const look = async () => {
    try {
      const answer = await ready();
      if (answer === undefined) return;
      state ??= register();
      // Down with its reason: `database_missing` and `credentials_refused` need the operator,
      // `unreachable` only time.
      if (answer === true) state.up();
      else state.down(answer);
    } catch (error) {
      logger.debug({ errorClass: (error as Error).name }, 'watch database health look failed');
    }
  };
  const loop = () => {
    if (stopped) return;
    void look().finally(() => {
      if (stopped) return;
      timer = setTimeout(loop, everyMs);
      timer.unref();
    });
  };
  loop();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
