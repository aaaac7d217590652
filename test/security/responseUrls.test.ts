/**
 * The response_url allow-list on its own: which origins are sent to, and what happens to the
 * rest (nothing sent there; the Web API where the payload says who and where).
 */
import { describe, expect, it } from 'vitest';
import { type ChatApi, createResponseUrlGuard } from '../../src/slack/transport/responseUrls.js';
import { collectingLogger } from '../helpers/logSink.js';

function setup(apiUrl = 'http://127.0.0.1:4010/api/') {
  const sent: string[] = [];
  const inits: Array<RequestInit | undefined> = [];
  const posted: Array<{ method: string; args: Record<string, unknown> }> = [];
  let refused = 0;
  const { logger, lines } = collectingLogger('trace', 'test');
  const guard = createResponseUrlGuard({
    apiUrl,
    logger,
    onRefused: () => {
      refused += 1;
    },
    fetch: async (input, init) => {
      sent.push(String(input));
      inits.push(init);
      return new Response(null, { status: 200 });
    },
  });
  const client: ChatApi = {
    chat: {
      postEphemeral: async (args) => {
        posted.push({ method: 'postEphemeral', args });
        return { ok: true };
      },
      postMessage: async (args) => {
        posted.push({ method: 'postMessage', args });
        return { ok: true };
      },
    },
  };
  guard.useClient(client);
  return { guard, sent, inits, posted, lines, refused: () => refused };
}

/** A request body as Bolt hands it to the app's middleware. */
const event = (body: Record<string, unknown>): Record<string, unknown> => body;

const send = (guard: ReturnType<typeof setup>['guard'], url: string, message: object) =>
  guard.fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(message),
  });

describe('response_url allow-list', () => {
  it("sends to Slack's hooks and to SLACK_API_URL's origin only", async () => {
    const { guard, sent, refused } = setup();
    await send(guard, 'https://hooks.slack.com/actions/T1/1/abc', { text: 'hi' });
    await send(guard, 'http://127.0.0.1:4010/response/xyz', { text: 'hi' });
    expect(sent).toEqual([
      'https://hooks.slack.com/actions/T1/1/abc',
      'http://127.0.0.1:4010/response/xyz',
    ]);
    expect(refused()).toBe(0);
  });

  it('never requests look-alikes, other ports, plain http or the metadata address', async () => {
    const { guard, sent, refused } = setup();
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://127.0.0.1:16379/',
      'http://hooks.slack.com/actions/x',
      'https://hooks.slack.com.evil.example/x',
      'https://evil.example/?https://hooks.slack.com/',
      'http://127.0.0.1:4011/response/xyz',
      'not a url',
    ]) {
      const response = await send(guard, url, { text: 'secret details' });
      expect(response.status, url).toBe(403);
    }
    expect(sent).toEqual([]);
    expect(refused()).toBe(7);
  });

  it('answers through the Web API when the payload names the user and channel, logging no path', async () => {
    const { guard, posted, lines } = setup();
    const hostile = 'http://10.0.0.5:8080/collect?key=abc';
    guard.screen(event({ response_url: hostile, user: { id: 'U0ASK1' }, channel: { id: 'C1' } }));
    const reply = await send(guard, hostile, { response_type: 'ephemeral', text: 'details' });
    expect(reply.status).toBe(200);
    expect(posted).toEqual([
      {
        method: 'postEphemeral',
        args: { channel: 'C1', user: 'U0ASK1', text: 'details', blocks: undefined },
      },
    ]);
    const log = lines.join('\n');
    expect(log).toContain('http://10.0.0.5:8080');
    expect(log).not.toContain('/collect');
    expect(log).not.toContain('key=abc');
  });

  it('shares to the channel through chat.postMessage, and slash-command fields work too', async () => {
    const { guard, posted } = setup();
    const hostile = 'https://evil.example/r';
    guard.screen(event({ response_url: hostile, user_id: 'U0SHARER2', channel_id: 'C2' }));
    await send(guard, hostile, { response_type: 'in_channel', text: 'shared' });
    expect(posted[0]).toMatchObject({
      method: 'postMessage',
      args: { channel: 'C2', text: 'shared' },
    });
  });

  it('remembers look-alikes of the allowed origins, which the quick check must not wave through', async () => {
    const { guard, posted } = setup();
    const lookAlikes = [
      'https://hooks.slack.com.evil.example/r',
      'https://hooks.slack.com@evil.example/r',
      'http://127.0.0.1:40100/r',
      'https://evil.example/https://hooks.slack.com/',
    ];
    for (const [i, url] of lookAlikes.entries()) {
      guard.screen(event({ response_url: url, user_id: `U0A${i}`, channel_id: `C${i}` }));
      await send(guard, url, { response_type: 'ephemeral', text: 'details' });
    }
    expect(posted.map((post) => post.args.user)).toEqual(['U0A0', 'U0A1', 'U0A2', 'U0A3']);
  });

  it("sends to GovSlack's hooks, and never follows a redirect from an allowed URL", async () => {
    const { guard, sent, inits } = setup();
    await send(guard, 'https://hooks.slack-gov.com/actions/T1/1/abc', { text: 'hi' });
    await send(guard, 'https://hooks.slack.com/actions/T1/1/abc', { text: 'hi' });
    expect(sent).toEqual([
      'https://hooks.slack-gov.com/actions/T1/1/abc',
      'https://hooks.slack.com/actions/T1/1/abc',
    ]);
    expect(inits.map((init) => init?.redirect)).toEqual(['error', 'error']);
  });

  it("refuses Slack's own API origin as a response_url when SLACK_API_URL is the default", async () => {
    const { guard, sent, refused } = setup('https://slack.com/api/');
    for (const url of [
      'https://slack.com/api/chat.postMessage',
      'https://slack.com/anything',
      'https://api.slack.com/x',
    ]) {
      const response = await send(guard, url, { text: 'secret details' });
      expect(response.status, url).toBe(403);
    }
    expect(sent).toEqual([]);
    expect(refused()).toBe(3);
  });

  it("lets the app's own Web API calls through: SLACK_API_URL with the bot token", async () => {
    const { guard, sent, refused } = setup('https://slack.com/api/');
    await guard.fetch('https://slack.com/api/chat.postMessage', {
      method: 'POST',
      headers: { Authorization: 'Bearer xoxb-test', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(sent).toEqual(['https://slack.com/api/chat.postMessage']);
    expect(refused()).toBe(0);
  });
});
