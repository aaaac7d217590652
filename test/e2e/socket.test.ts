/**
 * End to end through Bolt's real Socket Mode receiver: a local WebSocket server speaking
 * Slack's envelope protocol; the acknowledgement carries the answer.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonLabelled, textOf } from '../helpers/blocks.js';
import { blockActionsPayload, slashCommandPayload } from '../helpers/slack/index.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp({ mode: 'socket' });
});
afterAll(async () => {
  await run?.stop();
});

describe('Socket Mode', () => {
  it('answers /stock on the envelope acknowledgement, and a click through the response_url', async () => {
    const ack = await run.slack.sendEnvelope(
      'slash_commands',
      slashCommandPayload({
        command: '/stock',
        text: 'WIDGET-9',
        response_url: run.slack.responseUrl(),
      }),
    );
    const card = ack.payload as { blocks?: unknown[]; response_type?: string };
    expect(card.response_type).toBe('ephemeral');
    expect(textOf(card)).toContain('WIDGET-9');

    const all = buttonLabelled(card, 'All branches');
    const responseUrl = run.slack.responseUrl();
    // Fails unless the app acknowledges the click (ACK_TIMEOUT_MS).
    await run.slack.sendEnvelope(
      'interactive',
      blockActionsPayload({ actionId: all.action_id, value: all.value ?? '', responseUrl }),
    );
    const [replaced] = await run.slack.waitForResponses(responseUrl, 1);
    expect(replaced?.body.replace_original).toBe(true);
  });

  it('serves /healthz on PORT in Socket Mode too', async () => {
    const health = await request(`${run.baseUrl}/healthz`);
    expect(health.statusCode).toBe(200);
    expect(await health.body.json()).toMatchObject({ status: 'ok', mode: 'socket' });
  });
});
