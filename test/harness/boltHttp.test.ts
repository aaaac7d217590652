/**
 * Proves the harness drives a REAL Bolt 5 App through its HTTPReceiver: signed requests in,
 * acks out, respond() and Web API calls captured by the fake.
 */
import type { AddressInfo } from 'node:net';
import { App } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingBoltLogger } from '../helpers/slack/boltLogger.js';
import { type FakeSlack, startFakeSlack } from '../helpers/slack/fakeSlack.js';
import {
  blockActionsPayload,
  interactionForm,
  slashCommandForm,
} from '../helpers/slack/payloads.js';
import { postToSlackApp } from '../helpers/slack/post.js';

const BOT_TOKEN = 'xoxb-harness-bot';
const SIGNING_SECRET = 'harness-signing-secret';

let fake: FakeSlack;
let app: App;
let eventsUrl: string;
const logger = recordingBoltLogger();
const commandTexts: string[] = [];
const clickedValues: string[] = [];

beforeAll(async () => {
  fake = await startFakeSlack({ botToken: BOT_TOKEN });
  app = new App({
    token: BOT_TOKEN,
    signingSecret: SIGNING_SECRET,
    logger,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
  });
  app.command('/stock', async ({ command, ack, respond, client }) => {
    commandTexts.push(command.text);
    await ack(`Looking up ${command.text}`);
    await respond({ response_type: 'ephemeral', text: `Stock for ${command.text}` });
    await client.chat.postMessage({ channel: command.channel_id, text: 'posted' });
  });
  app.action('stock_refresh', async ({ ack, respond, action }) => {
    await ack();
    if (action.type === 'button') clickedValues.push(action.value ?? '');
    await respond({ replace_original: true, text: 'refreshed' });
  });
  // Port 0: the OS picks a free port; the started server tells which.
  const server = await app.start({ port: 0, host: '127.0.0.1' });
  eventsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
});

afterAll(async () => {
  await app.stop();
  await fake.close();
});

describe('a real Bolt App over HTTP, against the fake', () => {
  it('answers a signed slash command with the ack body, then responds and posts', async () => {
    const responseUrl = fake.responseUrl();
    const body = slashCommandForm({
      command: '/stock',
      text: 'WIDGET-9',
      response_url: responseUrl,
    });
    const reply = await postToSlackApp(eventsUrl, body, { signingSecret: SIGNING_SECRET });
    expect(reply).toMatchObject({ status: 200, body: 'Looking up WIDGET-9' });

    const [response] = await fake.waitForResponses(responseUrl, 1);
    expect(response?.body).toMatchObject({
      response_type: 'ephemeral',
      text: 'Stock for WIDGET-9',
    });
    const [post] = await fake.waitForCalls('chat.postMessage', 1);
    expect(post).toMatchObject({
      token: BOT_TOKEN,
      args: { channel: 'C2147483705', text: 'posted' },
    });
    // Bolt learnt its bot ids from auth.test at construction.
    expect(fake.calls('auth.test')).toHaveLength(1);
  });

  it('rejects forged, unsigned and stale requests with 401 before any listener runs', async () => {
    const before = commandTexts.length;
    const body = slashCommandForm({
      command: '/stock',
      text: 'FORGED',
      response_url: fake.responseUrl(),
    });
    const staleTimestamp = Math.floor(Date.now() / 1000) - 10 * 60;
    const replies = await Promise.all([
      postToSlackApp(eventsUrl, body, { signingSecret: SIGNING_SECRET, badSignature: true }),
      postToSlackApp(eventsUrl, body, { signingSecret: SIGNING_SECRET, unsigned: true }),
      postToSlackApp(eventsUrl, body, { signingSecret: SIGNING_SECRET, timestamp: staleTimestamp }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(commandTexts.length).toBe(before);
  });

  it('delivers a block_actions click to app.action, whose respond() reaches the fake', async () => {
    const responseUrl = fake.responseUrl();
    const payload = blockActionsPayload({
      actionId: 'stock_refresh',
      value: '{"v":1}',
      responseUrl,
    });
    const reply = await postToSlackApp(eventsUrl, interactionForm(payload), {
      signingSecret: SIGNING_SECRET,
    });
    expect(reply).toMatchObject({ status: 200, body: '' });
    const [response] = await fake.waitForResponses(responseUrl, 1);
    expect(response?.body).toMatchObject({ replace_original: true, text: 'refreshed' });
    expect(clickedValues).toContain('{"v":1}');
  });

  it('lets respond() fail on an expired response_url', async () => {
    const responseUrl = fake.responseUrl();
    fake.expireResponseUrl(responseUrl);
    const payload = blockActionsPayload({ actionId: 'stock_refresh', value: 'x', responseUrl });
    await postToSlackApp(eventsUrl, interactionForm(payload), { signingSecret: SIGNING_SECRET });
    // Bolt reports listener errors through its logger; wait until it has.
    await expect
      .poll(() => logger.errors().join('\n'), { timeout: 2000 })
      .toMatch(/Failed to respond to the response_url: 404/);
    expect(fake.responses(responseUrl)).toEqual([]);
  });
});
