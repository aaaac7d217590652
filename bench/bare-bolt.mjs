/**
 * The yardstick of `npm run bench`: a bare Bolt app on the same HTTP receiver, the same
 * signature check, the same Web API start-up call and the same /healthz route as ours, that
 * answers every /stock with a constant. Plain JavaScript, so nothing compiles at start.
 */
import { readFileSync } from 'node:fs';
import bolt from '@slack/bolt';

const { App, LogLevel } = bolt;
const app = new App({
  token: process.env.SLACK_BOT_TOKEN,
  signingSecret: process.env.SLACK_SIGNING_SECRET,
  port: Number(process.env.PORT),
  logLevel: LogLevel.ERROR,
  deferInitialization: true,
  clientOptions: { slackApiUrl: process.env.SLACK_API_URL },
  customRoutes: [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"ok"}');
      },
    },
  ],
});
// BENCH_BARE_CARD names a JSON file: answer that (one of our cards) instead, to tell what the
// card's size costs from what our code costs.
const answer = process.env.BENCH_BARE_CARD
  ? JSON.parse(readFileSync(process.env.BENCH_BARE_CARD, 'utf8'))
  : { response_type: 'ephemeral', text: 'WIDGET-9: 42 in stock' };
app.command('/stock', async ({ ack }) => {
  await ack(answer);
});
await app.init();
await app.start();
process.once('SIGTERM', () => app.stop().then(() => process.exit(0)));
