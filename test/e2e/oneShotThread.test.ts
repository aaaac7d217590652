/**
 * "Tell me when it's Yes" from outside: a No answered in a thread carries the button; its
 * press answers in that same thread (the confirmation, then the one alert when the stock
 * arrives), never at the top of the conversation, and the one-shot is gone after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SET_WATCH_ACTION } from '../../src/views/words.js';
import { sandboxStockSetter } from '../../src/watches/sandboxStock.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';
import { DM_CHANNEL, directMessageEvent, nextTs, sendEvent } from './helpers/words.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp();
});

afterAll(async () => {
  await run.stop();
});

describe("Tell me when it's Yes", () => {
  it('asked in a thread of the direct message, answers in that thread, once', async () => {
    const parent = nextTs();
    const event = directMessageEvent('have we got 500 WIDGET-9 in perth?', { thread_ts: parent });
    await sendEvent(run, event);
    await run.slack.waitForCalls('chat.postMessage', 1);
    const answer = run.slack.calls('chat.postMessage').find((c) => c.args.thread_ts === parent);
    expect(answer?.args.text).toContain('No');
    const button = buttonsOf({ blocks: answer?.args.blocks }).find(
      (b) => b.action_id === SET_WATCH_ACTION,
    );
    expect(button?.text).toBe("Tell me when it's Yes");
    const before = run.slack.calls('chat.postMessage').length;
    const sent = await run.click(SET_WATCH_ACTION, button?.value ?? '', {
      channelId: DM_CHANNEL,
      isEphemeral: false,
      messageTs: '1700000123.000100',
      threadTs: parent,
      messageBlocks: answer?.args.blocks as unknown[],
    });
    expect(sent.reply.status).toBe(200);
    const [note] = await run.slack.waitForResponses(sent.responseUrl, 1, 8000);
    // The No stays for everyone; the presser is told privately beside it.
    expect(note?.body.replace_original).not.toBe(true);
    expect(note?.body.text).toContain(
      "I'll tell you once, in this conversation, when 500 of WIDGET-9",
    );
    const confirmation = run.slack.calls('chat.postMessage').slice(before);
    expect(confirmation.map((c) => c.args.thread_ts)).toEqual([parent]);
    expect(textOf(confirmation[0]?.args ?? {})).toContain(
      "I'll tell you here once when 500 of `WIDGET-9` can be supplied from Perth",
    );

    const setStock = sandboxStockSetter(run.sandbox.data, run.services.watches.checker);
    const moved = await setStock({ code: 'WIDGET-9', branch: 'perth', available: 620 });
    if (!moved.ok) throw new Error('the sandbox did not move');
    expect(await moved.checkWatches()).toBe(true);
    await run.slack.waitForCalls('chat.postMessage', before + 2);
    const alert = run.slack.calls('chat.postMessage').slice(before + 1);
    expect(alert.map((c) => c.args.thread_ts)).toEqual([parent]);
    const words = textOf(alert[0]?.args ?? {});
    expect(words).toContain('✅ Now yes: 500 of WIDGET-9 can be supplied from Perth: 620 free');
    expect(words).not.toMatch(/Snooze|Stop watching|changes are told/);
    expect((await run.services.watches.service.listChannel(DM_CHANNEL)).watches).toEqual([]);
  });
});
