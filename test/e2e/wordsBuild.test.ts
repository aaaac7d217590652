/**
 * The build check asked in words, from outside (signed events through Bolt's HTTP receiver,
 * the sandbox ERP over HTTP): in a direct message and in a channel's thread it answers as
 * `/stock CODE build N [at BRANCH]` does; the channel's answer is a form for everyone (no
 * cost). A `/stock` text in words reads the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { ask } from './helpers/conversation.js';
import {
  CHANNEL,
  DM_CHANNEL,
  directMessageEvent,
  mentionEvent,
  sendEvent,
} from './helpers/words.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp();
});

afterAll(async () => {
  await run.stop();
});

/** The app's answer posted in reply to `ts` (or in the direct message), once it is there. */
async function answerTo(channel: string, threadTs: string | undefined): Promise<string> {
  for (let count = 1; ; count += 1) {
    const calls = await run.slack.waitForCalls('chat.postMessage', count, 10_000);
    const found = calls.find(
      (c) =>
        c.args.channel === channel &&
        (threadTs === undefined || c.args.thread_ts === threadTs) &&
        !/^Looking up/.test(String(c.args.text ?? '')),
    );
    if (found) return `${String(found.args.text ?? '')}\n${textOf(found.args)}`;
  }
}

describe('can we build … in words', () => {
  it('in a direct message: the build check at the branch, naming the short components', async () => {
    await sendEvent(run, directMessageEvent('could we build 10 WIDGET-9 at perth'));
    const text = await answerTo(DM_CHANNEL, undefined);
    expect(text).toContain('short WIDGET-9-CORE (need 10, 0 free at Perth');
  });

  it('in a channel: answered in its thread, with no cost', async () => {
    const event = mentionEvent('can we build 10 WIDGET-9?');
    await sendEvent(run, event);
    const text = await answerTo(CHANNEL, event.ts);
    expect(text).toMatch(/Yes, enough for \d+: 10 of WIDGET-9 from its 4 components/);
    expect(text).not.toMatch(/cost|909/i);
  });

  it('a /stock text in words reads as the same build check', async () => {
    const answer = await ask(run, '/stock', 'can we build 10 WIDGET-9 at perth?');
    expect(textOf(answer)).toContain('short WIDGET-9-CORE (need 10, 0 free at Perth');
  });
});
