/**
 * Proves the harness drives a REAL Bolt 5 App through its SocketModeReceiver: the app opens a
 * connection through apps.connections.open, gets `hello`, and acks envelopes over the socket.
 */
import { App } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingBoltLogger } from '../helpers/slack/boltLogger.js';
import { type FakeSlack, startFakeSlack } from '../helpers/slack/fakeSlack.js';
import { blockActionsPayload, slashCommandPayload } from '../helpers/slack/payloads.js';

const BOT_TOKEN = 'xoxb-harness-bot';
const APP_TOKEN = 'xapp-harness-app';

let fake: FakeSlack;
let app: App;
const logger = recordingBoltLogger();

beforeAll(async () => {
  fake = await startFakeSlack({ botToken: BOT_TOKEN, appToken: APP_TOKEN });
  app = new App({
    token: BOT_TOKEN,
    appToken: APP_TOKEN,
    socketMode: true,
    logger,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
  });
  app.command('/stock', async ({ command, ack, respond }) => {
    await ack({ response_type: 'ephemeral', text: `Looking up ${command.text}` });
    await respond({ text: `Stock for ${command.text}` });
  });
  app.action('stock_refresh', async ({ ack }) => {
    await ack();
  });
  await app.start();
});

afterAll(async () => {
  await app.stop();
  await fake.close();
});

describe('a real Bolt App in Socket Mode, against the fake', () => {
  it('connected through apps.connections.open with the app token', async () => {
    await fake.socketConnected();
    expect(fake.calls('apps.connections.open')).toEqual([
      expect.objectContaining({ token: APP_TOKEN, reply: expect.objectContaining({ ok: true }) }),
    ]);
    expect(fake.socketConnections()).toBe(1);
  });

  it('resolves sendEnvelope with the ack payload of a slash command', async () => {
    const responseUrl = fake.responseUrl();
    const ack = await fake.sendEnvelope(
      'slash_commands',
      slashCommandPayload({ command: '/stock', text: 'WIDGET-9', response_url: responseUrl }),
    );
    expect(ack.payload).toEqual({ response_type: 'ephemeral', text: 'Looking up WIDGET-9' });
    expect(ack.envelope_id).toMatch(/^[0-9a-f-]{36}$/);
    const [response] = await fake.waitForResponses(responseUrl, 1);
    expect(response?.body).toMatchObject({ text: 'Stock for WIDGET-9' });
  });

  it('gets an empty ack payload for a button click acked without a body', async () => {
    const payload = blockActionsPayload({
      actionId: 'stock_refresh',
      value: 'v',
      responseUrl: fake.responseUrl(),
    });
    const ack = await fake.sendEnvelope('interactive', payload);
    expect(ack.payload).toEqual({});
  });

  it('rejects when nothing acks in time', async () => {
    const payload = slashCommandPayload({
      command: '/unknown',
      text: '',
      response_url: fake.responseUrl(),
    });
    await expect(fake.sendEnvelope('slash_commands', payload, 300)).rejects.toThrow(/no ack/);
  });

  it('reconnects after a disconnect message, like Slack asks it to', async () => {
    fake.sendDisconnect('refresh_requested');
    await expect.poll(() => fake.socketConnections(), { timeout: 15_000 }).toBe(2);
    await fake.socketConnected();
    const ack = await fake.sendEnvelope(
      'slash_commands',
      slashCommandPayload({ command: '/stock', text: 'again', response_url: fake.responseUrl() }),
    );
    expect(ack.payload).toMatchObject({ text: 'Looking up again' });
  });
});
