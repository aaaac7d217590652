/**
 * Sends a request to the app's HTTP endpoint (`POST /slack/events`) the way Slack does:
 * form-encoded body, signed with the signing secret.
 */
import { request } from 'undici';
import { capture } from '../capture.js';
import { signSlackRequest } from './signing.js';

/** How to send and sign one request. */
export interface PostToSlackAppOptions {
  signingSecret: string;
  /** Default `application/x-www-form-urlencoded`, what Slack uses for commands and interactions. */
  contentType?: string;
  /** Unix seconds for the signature; default now. */
  timestamp?: number;
  /** Sign with the wrong secret, as a forged request would. */
  badSignature?: boolean;
  /** Send no signature headers at all. */
  unsigned?: boolean;
  /** Extra headers, e.g. `x-slack-retry-num`. */
  headers?: Record<string, string>;
}

/**
 * How long a request may wait for the app's answer before it fails. Slack gives an app 3 s to
 * acknowledge; this is far more on purpose: it only turns an answer that never comes into a
 * clear failure on a loaded machine, it does not measure speed (the benchmark does).
 */
export const ACK_TIMEOUT_MS = 10_000;

/** The app's answer. `json` is the parsed body when the app answered with JSON. */
export interface SlackAppReply {
  status: number;
  body: string;
  json?: unknown;
}

/**
 * POSTs `body` to `url` with Slack's signature headers and returns the status and body.
 * The connection is not kept alive, so the app's server can stop without waiting for it.
 */
export async function postToSlackApp(
  url: string,
  body: string,
  options: PostToSlackAppOptions,
): Promise<SlackAppReply> {
  const secret = options.badSignature ? `${options.signingSecret}-forged` : options.signingSecret;
  const signature = options.unsigned ? {} : signSlackRequest(secret, body, options.timestamp);
  const response = await request(url, {
    method: 'POST',
    body,
    // A fresh connection per request: nothing is left open when a test stops the app.
    reset: true,
    headersTimeout: ACK_TIMEOUT_MS,
    bodyTimeout: ACK_TIMEOUT_MS,
    headers: {
      'content-type': options.contentType ?? 'application/x-www-form-urlencoded',
      ...signature,
      ...options.headers,
    },
  });
  const text = await response.body.text();
  const reply: SlackAppReply = { status: response.statusCode, body: text };
  // Bolt answers an object ack with application/json and a string ack as plain text.
  const contentType = String(response.headers['content-type'] ?? '');
  if (contentType.includes('json') && text !== '') reply.json = JSON.parse(text);
  capture('message', 'http ack', text);
  return reply;
}
