/**
 * Where a `response_url` may point. Slack's are always `https://hooks.slack.com/…`; tests and
 * the console point SLACK_API_URL at a local fake, whose response URLs share its origin.
 * Any other URL in a payload (a signed but crafted request, or a Slack-side bug) could send a
 * contact's details to an internal service or to the cloud metadata address, so nothing is
 * sent there: the answer goes through the Web API instead (chat.postEphemeral to the same
 * user and channel) where the payload names them, a warning is logged with the URL's origin
 * only (its path is a bearer capability) and a counter goes up.
 *
 * Bolt builds `respond()` from the payload's URL and sends with `clientOptions.fetch`, so the
 * check sits in that fetch: no listener can forget it. `screen()` runs first, on every event,
 * to remember who each refused URL was meant for.
 */
import type { ReceiverEvent } from '@slack/bolt';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { AppLogger } from '../log/logger.js';

export const SLACK_HOOKS_ORIGIN = 'https://hooks.slack.com';

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

export interface ResponseUrlGuardOptions {
  /** SLACK_API_URL: its origin is allowed too. */
  apiUrl: string;
  logger: AppLogger;
  /** Counts each refused send (a metric). */
  onRefused: () => void;
  /** The real fetch; `globalThis.fetch` by default. */
  fetch?: typeof fetch;
}

export interface ResponseUrlGuard {
  /** For `clientOptions.fetch`: Bolt's respond() and the Web API client both send through it. */
  fetch: typeof fetch;
  /** Notes where each disallowed response_url of this event was meant to answer. */
  screen(event: ReceiverEvent): void;
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
  user_id: z.string().optional(),
  channel_id: z.string().optional(),
  user: z.object({ id: z.string() }).loose().optional(),
  channel: z.object({ id: z.string() }).loose().nullish(),
});

const Message = z
  .object({
    text: z.string().default(''),
    blocks: z.array(z.unknown()).optional(),
    response_type: z.string().optional(),
    delete_original: z.boolean().optional(),
  })
  .loose();

export function originOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  return new URL(url).origin;
}

export function createResponseUrlGuard(options: ResponseUrlGuardOptions): ResponseUrlGuard {
  const { logger } = options;
  const realFetch = options.fetch ?? globalThis.fetch;
  const allowed = new Set([SLACK_HOOKS_ORIGIN, originOf(options.apiUrl)]);
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
    return isAllowed(url) ? realFetch(input, init) : fallback(url, init);
  };

  return {
    fetch: guardedFetch,
    screen(event) {
      if (typeof event.body !== 'object' || event.body === null || plainlyAllowed(event.body)) {
        return;
      }
      const body = Addressed.safeParse(event.body);
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

function parseJson(body: unknown): unknown {
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
