/**
 * Where a `response_url` may point: Slack's hooks (`https://hooks.slack.com`, and GovSlack's
 * `https://hooks.slack-gov.com`), or the origin of a SLACK_API_URL that is not Slack's own
 * (tests and the console point it at a local fake, whose response URLs share its origin).
 * Slack's default API origin is not one of them: a response_url of `https://slack.com/…` is
 * never Slack's. Any other URL in a payload (a signed but crafted request, or a Slack-side bug)
 * could send a contact's details to an internal service or to the cloud metadata address, so
 * nothing is sent there: the answer goes through the Web API instead (chat.postEphemeral to
 * the same user and channel) where the payload names them, a warning is logged with the URL's
 * origin only (its path is a bearer capability) and a counter goes up. Redirects are never
 * followed (`redirect: 'error'`): an allowed URL cannot bounce the answer elsewhere.
 *
 * Bolt builds `respond()` from the payload's URL and sends with `clientOptions.fetch`, so the
 * check sits in that fetch: no listener can forget it. The Web API client sends through the
 * same fetch; its calls (to SLACK_API_URL, with the bot token) go on untouched. `screen()`
 * runs first, as listener middleware of every listener whose payloads carry a response_url,
 * to remember who each refused URL was meant for.
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { AppLogger } from '../../log/logger.js';
import { ChannelId, UserId } from '../ids.js';

const SLACK_HOOKS_ORIGINS = ['https://hooks.slack.com', 'https://hooks.slack-gov.com'];

/** Slack's own Web API origin, where no response_url ever points. */
const SLACK_API_ORIGIN = 'https://slack.com';

/** The part of WebClient the fallback uses. */
export interface ChatApi {
  chat: {
    postEphemeral(args: {
      channel: string;
      user: string;
      text: string;
      blocks?: unknown[];
    }): Promise<unknown>;
    postMessage(args: { channel: string; text: string; blocks?: unknown[] }): Promise<unknown>;
  };
}

interface ResponseUrlGuardOptions {
  /** SLACK_API_URL: its origin is allowed too when it is not Slack's own. */
  apiUrl: string;
  logger: AppLogger;
  /** Counts each refused send (a metric). */
  onRefused: () => void;
  /** The real fetch; `globalThis.fetch` by default. */
  fetch?: typeof fetch;
}

interface ResponseUrlGuard {
  /** For `clientOptions.fetch`: Bolt's respond() and the Web API client both send through it. */
  fetch: typeof fetch;
  /** Notes where each disallowed response_url of this request body was meant to answer. */
  screen(body: unknown): void;
  /** The Web API client for the fallback (the app's own, built after this guard). */
  useClient(client: ChatApi): void;
}

interface Target {
  channel: string | undefined;
  user: string | undefined;
}

/** The fields of a payload that say where an answer would go. */
const Addressed = z.object({
  response_url: z.string().optional(),
  response_urls: z.array(z.object({ response_url: z.string() }).loose()).optional(),
  user_id: UserId.optional().catch(undefined),
  channel_id: ChannelId.optional().catch(undefined),
  user: z.object({ id: UserId }).loose().optional().catch(undefined),
  channel: z.object({ id: ChannelId }).loose().nullish().catch(undefined),
});

const Message = z
  .object({
    text: z.string().default(''),
    blocks: z.array(z.unknown()).optional(),
    response_type: z.string().optional(),
    delete_original: z.boolean().optional(),
  })
  .loose();

function originOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  return new URL(url).origin;
}

export function createResponseUrlGuard(options: ResponseUrlGuardOptions): ResponseUrlGuard {
  const { logger } = options;
  const realFetch = options.fetch ?? globalThis.fetch;
  const apiOrigin = originOf(options.apiUrl);
  const allowed = new Set(
    apiOrigin && apiOrigin !== SLACK_API_ORIGIN
      ? [...SLACK_HOOKS_ORIGINS, apiOrigin]
      : SLACK_HOOKS_ORIGINS,
  );
  const isAllowed = (url: string) => {
    const origin = originOf(url);
    return origin !== undefined && allowed.has(origin);
  };
  // An allowed origin and a slash: no other origin's URL can begin so.
  const prefixes = [...allowed].flatMap((origin) => (origin ? [`${origin}/`] : []));
  /** The usual event: one response_url, Slack's own. Nothing to remember, no parse. */
  const plainlyAllowed = (body: Record<string, unknown>) =>
    body.response_urls === undefined &&
    (body.response_url === undefined ||
      (typeof body.response_url === 'string' &&
        prefixes.some((prefix) => (body.response_url as string).startsWith(prefix))));
  // A response_url lives 30 minutes; so may the memory of where its answer should go.
  const targets = new LRUCache<string, Target>({ max: 2000, ttl: 30 * 60 * 1000 });
  let client: ChatApi | undefined;

  const fallback = async (url: string, init: RequestInit | undefined): Promise<Response> => {
    options.onRefused();
    const target = targets.get(url);
    const origin = originOf(url) ?? 'unparseable';
    const message = Message.safeParse(parseJson(init?.body));
    if (!target?.channel || !target.user || !client || !message.success) {
      logger.warn(
        { event: 'response_url_refused', origin, fallback: 'none' },
        'refused to send to a response_url outside Slack; nothing was sent',
      );
      return new Response(null, { status: 403, statusText: 'response_url not allowed' });
    }
    logger.warn(
      { event: 'response_url_refused', origin, fallback: 'web_api' },
      'refused to send to a response_url outside Slack; answering through the Web API',
    );
    const { text, blocks, response_type: type } = message.data;
    if (message.data.delete_original) return new Response(null, { status: 200 });
    try {
      if (type === 'in_channel')
        await client.chat.postMessage({ channel: target.channel, text, blocks });
      else
        await client.chat.postEphemeral({
          channel: target.channel,
          user: target.user,
          text,
          blocks,
        });
      return new Response(null, { status: 200 });
    } catch (error) {
      const code = (error as { data?: { error?: unknown } }).data?.error;
      logger.warn({ event: 'response_url_fallback_failed', code }, 'Web API fallback failed');
      return new Response(null, { status: 502, statusText: 'Web API fallback failed' });
    }
  };

  const guardedFetch: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (isWebApiCall(options.apiUrl, url, init)) return realFetch(input, init);
    return isAllowed(url) ? realFetch(input, { ...init, redirect: 'error' }) : fallback(url, init);
  };

  return {
    fetch: guardedFetch,
    screen(payload) {
      if (!isRecord(payload) || plainlyAllowed(payload)) return;
      const body = Addressed.safeParse(payload);
      if (!body.success) return;
      const fields = body.data;
      const urls = [
        fields.response_url,
        ...(fields.response_urls ?? []).map((entry) => entry.response_url),
      ];
      const target: Target = {
        channel: fields.channel?.id ?? fields.channel_id,
        user: fields.user?.id ?? fields.user_id,
      };
      for (const url of urls) if (url !== undefined && !isAllowed(url)) targets.set(url, target);
    },
    useClient(webClient) {
      client = webClient;
    },
  };
}

/**
 * The screen as Bolt listener middleware, for the listeners whose payloads may carry a
 * response_url (commands, buttons, the message shortcut, modal submissions). It runs after
 * Bolt's matchers, so only for the listener that answers.
 */
export function screeningMiddleware(guard: ResponseUrlGuard): Middleware<AnyMiddlewareArgs> {
  return async ({ body, next }) => {
    guard.screen(body);
    await next();
  };
}

/**
 * A Web API call of the app's own client: a method under SLACK_API_URL, sent with the bot
 * token. respond() never sends an Authorization header, so a response_url that happens to
 * start with SLACK_API_URL is still screened as one.
 */
function isWebApiCall(apiUrl: string, url: string, init: RequestInit | undefined): boolean {
  if (!url.startsWith(apiUrl)) return false;
  const headers = new Headers(init?.headers);
  return headers.get('authorization')?.startsWith('Bearer ') === true;
}

function parseJson(body: unknown): unknown {
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
