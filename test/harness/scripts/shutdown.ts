/**
 * Run as a child process by shutdown.test.ts: drives a Socket Mode app and an HTTP app against
 * the fake, shuts everything down in the documented order, and must then exit on its own. A
 * leaked socket or timer keeps it alive, which the test sees as a timeout.
 */
import type { AddressInfo } from 'node:net';
import { App } from '@slack/bolt';
import {
  postToSlackApp,
  recordingBoltLogger,
  slashCommandForm,
  slashCommandPayload,
  startFakeSlack,
} from '../../helpers/slack/index.js';

const fake = await startFakeSlack();
const clientOptions = { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } };

const socketApp = new App({
  token: 'xoxb-shutdown',
  appToken: 'xapp-shutdown',
  socketMode: true,
  logger: recordingBoltLogger(),
  clientOptions,
});
const httpApp = new App({
  token: 'xoxb-shutdown',
  signingSecret: 'shutdown-secret',
  logger: recordingBoltLogger(),
  clientOptions,
});
for (const app of [socketApp, httpApp]) {
  app.command('/stock', async ({ ack, respond }) => {
    await ack('ack');
    await respond('responded');
  });
}

await socketApp.start();
const socketResponseUrl = fake.responseUrl();
const ack = await fake.sendEnvelope(
  'slash_commands',
  slashCommandPayload({ command: '/stock', text: 'x', response_url: socketResponseUrl }),
);
await fake.waitForResponses(socketResponseUrl, 1);

const server = await httpApp.start({ port: 0, host: '127.0.0.1' });
const httpResponseUrl = fake.responseUrl();
const reply = await postToSlackApp(
  `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`,
  slashCommandForm({ command: '/stock', text: 'x', response_url: httpResponseUrl }),
  { signingSecret: 'shutdown-secret' },
);
await fake.waitForResponses(httpResponseUrl, 1);

await socketApp.stop();
await httpApp.stop();
await fake.close();
process.stdout.write(`${JSON.stringify({ socketAck: ack.payload, httpStatus: reply.status })}\n`);
