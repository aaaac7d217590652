/**
 * The Slack port over a real WebClient, against a loopback Slack API: refusals become
 * PostErrors with Slack's code, permanent or not, and a 429 is not waited out.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostError, slackPoster } from '../../src/watches/poster.js';

let server: Server;
let answer: (method: string) => { status: number; body: unknown; headers?: Record<string, string> };
let client: WebClient;

beforeEach(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const method = (request.url ?? '').replace(/^\/api\//, '');
      const { status, body, headers } = answer(method);
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new WebClient('xoxb-test-poster', {
    slackApiUrl: `http://127.0.0.1:${port}/api/`,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
  });
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('slackPoster', () => {
  it('posts and updates, handing back the message ts', async () => {
    const seen: string[] = [];
    answer = (method) => {
      seen.push(method);
      return { status: 200, body: { ok: true, ts: '1700000000.000200', channel: 'C1' } };
    };
    const poster = slackPoster(client);
    expect(await poster.post('C1', { text: 'hi', blocks: [] })).toEqual({
      ts: '1700000000.000200',
    });
    await poster.update('C1', '1700000000.000200', { text: 'hi again', blocks: [] });
    expect(seen).toEqual(['chat.postMessage', 'chat.update']);
  });

  it.each([
    ['is_archived', true],
    ['channel_not_found', true],
    ['token_revoked', true],
    ['msg_too_long', false],
  ])('a refusal %s is a PostError (permanent: %s)', async (error, permanent) => {
    answer = () => ({ status: 200, body: { ok: false, error } });
    const failure = await slackPoster(client)
      .post('C1', { text: 'x', blocks: [] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PostError);
    expect(failure).toMatchObject({ slackError: error, permanent });
  });

  it('a 429 fails at once (not permanent), so the alert stays owed for the next pass', async () => {
    answer = () => ({
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': '30' },
    });
    const failure = await slackPoster(client)
      .post('C1', { text: 'x', blocks: [] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PostError);
    expect((failure as PostError).permanent).toBe(false);
  });
});
