/**
 * Signed slash commands over HTTP, as Slack sends them, and a closed-loop load generator.
 */
import { createHmac } from 'node:crypto';
import { Pool } from 'undici';

// A Slack Signing Secret is 32 hexadecimal characters; the app refuses anything else.
export const SIGNING_SECRET = '0123456789abcdef0123456789abcdef';
export const BOT_TOKEN = 'xoxb-bench-0123456789-abcdefghij';

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

/** A /stock form exactly as Slack posts it, signed with v0 HMAC-SHA256 at the current second. */
export function signedStock(text: string, responseUrl: string, user = 'U0BENCH'): SignedRequest {
  const body = new URLSearchParams({
    token: 'legacy-verification-token',
    team_id: 'T0BENCH',
    team_domain: 'bench',
    channel_id: 'C0BENCH',
    channel_name: 'stock',
    user_id: user,
    user_name: 'bench',
    command: '/stock',
    text,
    response_url: responseUrl,
    trigger_id: '1.2.3',
    api_app_id: 'A0BENCH',
  }).toString();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return {
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signature,
    },
  };
}

export interface Reply {
  status: number;
  body: string;
  ms: number;
}

export async function post(pool: Pool, signed: SignedRequest): Promise<Reply> {
  const began = performance.now();
  const response = await pool.request({
    path: '/slack/events',
    method: 'POST',
    headers: signed.headers,
    body: signed.body,
  });
  const body = await response.body.text();
  return { status: response.statusCode, body, ms: performance.now() - began };
}

export function appPool(port: number, connections: number): Pool {
  return new Pool(`http://127.0.0.1:${port}`, { connections, keepAliveTimeout: 60_000 });
}

export interface LoopResult {
  ok: number;
  wrong: number;
  failed: number;
  seconds: number;
}

/**
 * `concurrency` workers send the next request as soon as the last is answered, for `seconds`.
 * `next` gives the request for the i-th send; `isOk` judges the reply.
 */
export async function closedLoop(
  pool: Pool,
  concurrency: number,
  seconds: number,
  next: (i: number) => SignedRequest,
  isOk: (reply: Reply, i: number) => boolean,
  stopAfter = Number.POSITIVE_INFINITY,
): Promise<LoopResult> {
  const result: LoopResult = { ok: 0, wrong: 0, failed: 0, seconds: 0 };
  const began = performance.now();
  const deadline = began + seconds * 1000;
  let sent = 0;
  const worker = async () => {
    while (performance.now() < deadline && sent < stopAfter) {
      const i = sent;
      sent += 1;
      try {
        const reply = await post(pool, next(i));
        if (isOk(reply, i)) result.ok += 1;
        else result.wrong += 1;
      } catch {
        result.failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  result.seconds = (performance.now() - began) / 1000;
  return result;
}
