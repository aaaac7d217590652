/**
 * A small Bolt App for console tests: the same shape as the real listeners (ack first, answer
 * later through respond or the Web API), so the receiver and renderer are proven without the
 * lookup service.
 */
import { App } from '@slack/bolt';
import type { ConsoleTransport } from '../../src/console/index.js';
import { createLogger, toBoltLogger } from '../../src/log/logger.js';

export const seen: { bodies: Record<string, unknown>[]; userInfo: unknown[] } = {
  bodies: [],
  userInfo: [],
};

const page = (n: number) => ({
  text: `Results page ${n}`,
  blocks: [
    { type: 'header', text: { type: 'plain_text', text: `Widgets, page ${n}` } },
    {
      type: 'section',
      block_id: `row_${n}`,
      text: { type: 'mrkdwn', text: `*WIDGET-${n}* Blue widget &amp; bolt` },
      accessory: {
        type: 'button',
        text: { type: 'plain_text', text: 'View' },
        action_id: 'stock_view:0',
        value: `{"code":"WIDGET-${n}"}`,
      },
    },
    {
      type: 'actions',
      block_id: `nav_${n}`,
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Next ›' },
          action_id: 'stock_next_page',
          value: String(n + 1),
        },
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Share to channel' },
          action_id: 'stock_share',
          value: String(n),
        },
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Reveal' },
          action_id: 'stock_reveal',
        },
      ],
    },
  ],
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function buildSmallApp(transport: ConsoleTransport): App {
  const app = new App({
    receiver: transport.receiver,
    token: transport.token,
    botId: transport.botId,
    botUserId: transport.botUserId,
    logger: toBoltLogger(createLogger({ level: 'silent' })),
    clientOptions: { slackApiUrl: transport.slackApiUrl, retryConfig: { retries: 0 } },
  });
  // Rethrow without logging: the console reports the failure itself.
  app.error(async (error) => {
    throw error;
  });
  app.command('/stock', async ({ ack, respond, command, client }) => {
    seen.bodies.push({ ...command });
    if (command.text === 'quick') {
      await ack('Quick answer with *bold*');
      return;
    }
    await ack();
    if (command.text === 'fail') throw new Error('the ERP is on fire');
    if (command.text === 'post') {
      const info = await client.users.info({ user: command.user_id });
      seen.userInfo.push(info.user);
      await client.chat.postMessage({ channel: command.channel_id, text: 'Posted for everyone' });
      return;
    }
    await sleep(150);
    if (command.text === 'slow') await respond({ text: 'Working on it…' });
    if (command.text === 'slow') await sleep(700);
    await respond(page(1));
  });
  app.action('stock_next_page', async ({ ack, respond, body }) => {
    await ack();
    seen.bodies.push(body as unknown as Record<string, unknown>);
    const value = (body as { actions: { value: string }[] }).actions[0]?.value ?? '2';
    await sleep(50);
    await respond({ replace_original: true, ...page(Number(value)) });
  });
  app.action('stock_share', async ({ ack, respond }) => {
    await ack();
    await respond({
      delete_original: true,
      response_type: 'in_channel',
      text: 'Shared widgets',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Shared *widgets*' } }],
    });
  });
  app.action('stock_reveal', async ({ ack, client, body }) => {
    await ack();
    await client.chat.postEphemeral({
      channel: body.channel?.id ?? '',
      user: body.user.id,
      text: 'Phone: 0400 000 321',
    });
  });
  return app;
}
