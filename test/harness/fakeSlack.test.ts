import { webApi } from '@slack/bolt';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../helpers/slack/fakeSlack.js';
import { SLACK_DEFAULTS } from '../helpers/slack/payloads.js';

const BOT_TOKEN = 'xoxb-fake-bot';
const APP_TOKEN = 'xapp-fake-app';

let fake: FakeSlack;

function client(token = BOT_TOKEN): webApi.WebClient {
  return new webApi.WebClient(token, {
    slackApiUrl: fake.apiUrl,
    retryConfig: { retries: 0 },
    logLevel: webApi.LogLevel.ERROR,
  });
}

function postJson(url: string, body: unknown) {
  return request(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    reset: true,
  });
}

describe('fake Slack Web API', () => {
  beforeEach(async () => {
    fake = await startFakeSlack({
      botToken: BOT_TOKEN,
      appToken: APP_TOKEN,
      users: { UGUEST: { is_restricted: true, name: 'guest' } },
      userGroups: { S1: ['U1', 'U2'] },
      failures: { 'chat.postEphemeral': 'user_not_in_channel' },
    });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('answers auth.test with the bot identity and records the call with its token', async () => {
    const result = await client().auth.test();
    expect(result).toMatchObject({
      ok: true,
      bot_id: SLACK_DEFAULTS.botId,
      user_id: SLACK_DEFAULTS.botUserId,
      team_id: SLACK_DEFAULTS.teamId,
    });
    expect(fake.calls('auth.test')).toEqual([
      expect.objectContaining({
        method: 'auth.test',
        token: BOT_TOKEN,
        reply: expect.objectContaining({ ok: true }),
      }),
    ]);
  });

  it('rejects a wrong bot token like Slack, as a platform error', async () => {
    await expect(client('xoxb-wrong').auth.test()).rejects.toMatchObject({
      data: { error: 'invalid_auth' },
    });
    await expect(client(APP_TOKEN).auth.test()).rejects.toMatchObject({
      data: { error: 'not_allowed_token_type' },
    });
  });

  it('posts messages with increasing ts and decodes JSON-encoded blocks in the record', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: 'hi' } }];
    const first = await client().chat.postMessage({ channel: 'C1', text: 'one', blocks });
    const second = await client().chat.postMessage({ channel: 'C1', text: 'two' });
    expect(first).toMatchObject({ ok: true, channel: 'C1' });
    expect(Number(second.ts)).toBeGreaterThan(Number(first.ts));
    const [call] = fake.calls('chat.postMessage');
    expect(call?.args).toEqual({ channel: 'C1', text: 'one', blocks });
  });

  it('honours configured and runtime failures, and clears them', async () => {
    await expect(
      client().chat.postEphemeral({ channel: 'C1', user: 'U1', text: 'x' }),
    ).rejects.toMatchObject({ data: { error: 'user_not_in_channel' } });
    fake.setFailure('chat.postMessage', 'not_in_channel');
    await expect(client().chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      data: { error: 'not_in_channel' },
    });
    fake.setFailure('chat.postMessage', undefined);
    await expect(client().chat.postMessage({ channel: 'C1', text: 'x' })).resolves.toMatchObject({
      ok: true,
    });
    expect(fake.calls('chat.postMessage').map((c) => c.reply.ok)).toEqual([false, true]);
  });

  it('answers a rate-limited method with 429 and Retry-After', async () => {
    fake.setFailure('chat.update', 'ratelimited');
    const rejecting = new webApi.WebClient(BOT_TOKEN, {
      slackApiUrl: fake.apiUrl,
      rejectRateLimitedCalls: true,
      logLevel: webApi.LogLevel.ERROR,
    });
    await expect(
      rejecting.chat.update({ channel: 'C1', ts: '1.2', text: 'x' }),
    ).rejects.toMatchObject({
      code: webApi.ErrorCode.RateLimitedError,
      retryAfter: 1,
    });
  });

  it('describes users, user groups and conversations', async () => {
    const guest = await client().users.info({ user: 'UGUEST' });
    expect(guest.user).toMatchObject({
      id: 'UGUEST',
      is_restricted: true,
      is_ultra_restricted: false,
      is_bot: false,
      deleted: false,
    });
    const member = await client().users.info({ user: SLACK_DEFAULTS.userId });
    expect(member.user?.is_restricted).toBe(false);
    await expect(client().users.info({ user: 'UNOBODY' })).rejects.toMatchObject({
      data: { error: 'user_not_found' },
    });
    await expect(client().usergroups.users.list({ usergroup: 'S1' })).resolves.toMatchObject({
      users: ['U1', 'U2'],
    });
    await expect(client().usergroups.users.list({ usergroup: 'S9' })).rejects.toMatchObject({
      data: { error: 'no_such_subteam' },
    });
    const dm = await client().conversations.info({ channel: 'D123' });
    expect(dm.channel).toMatchObject({ id: 'D123', is_im: true, is_channel: false });
  });

  it('answers unknown methods with unknown_method, and records them', async () => {
    await expect(client().apiCall('chat.scheduleMessage', { channel: 'C1' })).rejects.toMatchObject(
      {
        data: { error: 'unknown_method' },
      },
    );
    expect(fake.calls().map((c) => c.method)).toEqual(['chat.scheduleMessage']);
  });

  it('accepts JSON bodies too', async () => {
    const reply = await request(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      body: JSON.stringify({ channel: 'C9', text: 'json' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BOT_TOKEN}` },
      reset: true,
    });
    expect(await reply.body.json()).toMatchObject({ ok: true, channel: 'C9' });
    expect(fake.calls('chat.postMessage')[0]?.args).toEqual({ channel: 'C9', text: 'json' });
  });

  it('opens Socket Mode connections only with the app token', async () => {
    const opened = await client(APP_TOKEN).apps.connections.open();
    expect(opened.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/socket\?ticket=[0-9a-f-]+$/);
    await expect(client().apps.connections.open()).rejects.toMatchObject({
      data: { error: 'not_allowed_token_type' },
    });
  });

  it('waits for calls made later', async () => {
    const waiting = fake.waitForCalls('chat.postMessage', 1);
    await client().chat.postMessage({ channel: 'C1', text: 'later' });
    await expect(waiting).resolves.toHaveLength(1);
    await expect(fake.waitForCalls('chat.update', 1, 50)).rejects.toThrow(
      /wanted 1 chat.update call/,
    );
  });
});

describe('fake Slack response_urls', () => {
  beforeEach(async () => {
    fake = await startFakeSlack();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('captures POSTs per url and lets a test wait for them', async () => {
    const url = fake.responseUrl();
    const other = fake.responseUrl();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/response\/[0-9a-f-]{36}$/);
    const waiting = fake.waitForResponses(url, 2);
    await postJson(url, { text: 'one', response_type: 'ephemeral' });
    await postJson(other, { text: 'elsewhere' });
    await postJson(url, { replace_original: true, text: 'two' });
    const captured = await waiting;
    expect(captured.map((r) => r.body.text)).toEqual(['one', 'two']);
    expect(fake.responses()).toHaveLength(3);
    expect(fake.responses(other)[0]).toMatchObject({ url: other, body: { text: 'elsewhere' } });
  });

  it("enforces Slack's 5 uses and explicit expiry with 404", async () => {
    const url = fake.responseUrl();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await postJson(url, { text: `${i}` })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);
    expect(fake.responses(url)).toHaveLength(5);

    const expired = fake.responseUrl();
    fake.expireResponseUrl(expired);
    expect((await postJson(expired, { text: 'late' })).statusCode).toBe(404);
    expect(fake.responses(expired)).toEqual([]);
  });

  it('times out a wait with what it saw', async () => {
    await expect(fake.waitForResponses(fake.responseUrl(), 1, 50)).rejects.toThrow(/got 0/);
  });
});
