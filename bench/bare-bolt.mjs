/**
 * The yardstick of `npm run bench`: a bare Bolt app on the same HTTP receiver, the same
 * signature check, the same Web API start-up call and the same /healthz route as ours, that
 * answers every /stock with a constant. Plain JavaScript, so nothing compiles at start.
 *
 * BENCH_BARE_CARD names a JSON file: answer that (one of our cards) instead, to tell what the
 * card's size costs from what our code costs. BENCH_BARE_LISTENERS=app also registers the
 * app's other listeners and their middleware as no-ops (bench/boltMirror.mjs), to tell what
 * Bolt's dispatch over the app's surfaces costs.
 */
import { readFileSync } from 'node:fs';
import bolt from '@slack/bolt';
import { mirrorAppListeners } from './boltMirror.mjs';

const { App, LogLevel } = bolt;
const mirror = process.env.BENCH_BARE_LISTENERS === 'app';
const app = new App({
  token: process.env.SLACK_BOT_TOKEN,
  signingSecret: process.env.SLACK_SIGNING_SECRET,
  port: Number(process.env.PORT),
  logLevel: LogLevel.ERROR,
  deferInitialization: true,
  // The app's own Bolt options, when standing in for its listeners.
  ...(mirror ? { convoStore: false } : {}),
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
const answer = process.env.BENCH_BARE_CARD
  ? JSON.parse(readFileSync(process.env.BENCH_BARE_CARD, 'utf8'))
  : { response_type: 'ephemeral', text: 'WIDGET-9: 42 in stock' };
const stock = async ({ ack }) => {
  await ack(answer);
};
if (mirror) mirrorAppListeners(app, stock);
else app.command('/stock', stock);
await app.init();
await app.start();
process.once('SIGTERM', () => app.stop().then(() => process.exit(0)));
