/**
 * Asking in words through Bolt's real Socket Mode receiver, and who gets what in a channel:
 * a guest's mention and a mention the access lists refuse are answered privately.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../helpers/app.js';
import { eventEnvelope } from '../helpers/slack/searchPayloads.js';
import { directMessageEvent, mentionEvent, posted, sendEvent } from './helpers/words.js';

/** Waits (on the fake's recorded calls) until `count` more answers were posted. */
async function answers(run: RunningApp, before: number, count: number) {
  await run.slack.waitForCalls('chat.postMessage', 0);
  const deadline = Date.now() + 8000;
  for (;;) {
    const all = posted(run);
    if (all.length >= before + count) return all.slice(before);
    if (Date.now() > deadline) throw new Error(`wanted ${count} answer(s)`);
    const made =
      run.slack.calls('chat.postMessage').length + run.slack.calls('chat.postEphemeral').length;
    await run.slack.waitForCalls('chat.postMessage', made + 1, 200).catch(() => undefined);
  }
}

describe('Socket Mode', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({ mode: 'socket' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('answers a direct message once, and not its retry', async () => {
    const before = posted(run).length;
    const event = directMessageEvent('is WIDGET-90 in stock?');
    // Fails unless the app acknowledges the envelope (ACK_TIMEOUT_MS).
    await run.slack.sendEnvelope('events_api', eventEnvelope(event));
    const [answer] = await answers(run, before, 1);
    expect(answer?.text).toContain('WIDGET-90');
    // Slack's retry of the same event (`retry_attempt`), then a sentinel that is answered.
    run.slack.sendRawFrame(
      JSON.stringify({
        envelope_id: randomUUID(),
        type: 'events_api',
        accepts_response_payload: false,
        retry_attempt: 1,
        retry_reason: 'timeout',
        payload: eventEnvelope(event),
      }),
    );
    await run.slack.sendEnvelope('events_api', eventEnvelope(directMessageEvent('help')));
    const after = await answers(run, before + 1, 1);
    expect(after).toHaveLength(1);
    expect(after[0]?.text).toContain('Ask in words');
  });
});

describe('privately, in a channel', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({
      slack: { users: { UGUEST01: { is_restricted: true } } },
      env: { STOCK_ALLOWED_USERS: 'U2147483697,UGUEST01' },
    });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it("answers a guest's mention only to the guest, without internal figures", async () => {
    const before = posted(run).length;
    await sendEvent(run, mentionEvent('have we got 5 WIDGET-9 in sydney?', { user: 'UGUEST01' }));
    const [answer] = await answers(run, before, 1);
    expect(answer?.method).toBe('chat.postEphemeral');
    expect(answer?.user).toBe('UGUEST01');
    expect(answer?.text).toContain('Sydney');
    expect(answer?.text).not.toMatch(/cost/i);
    expect(run.slack.calls('chat.postMessage').length).toBe(0);
  });

  it('refuses privately whom the access lists refuse, before any ERP call', async () => {
    const calls = run.sandbox.stats().requests.getItem ?? 0;
    const before = posted(run).length;
    await sendEvent(run, mentionEvent('have we got 5 WIDGET-9?', { user: 'UOTHER99' }));
    const [answer] = await answers(run, before, 1);
    expect(answer?.method).toBe('chat.postEphemeral');
    expect(answer?.text).toContain('not enabled for your account');
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(calls);
  });
});
