/**
 * "Try again" on answers in words that failed in a way that may pass (the ERP not answering):
 * a direct message's, the assistant panel's and a mention's. The button asks the command text
 * the sentence stands for again (a contact asked by its account's words with people words,
 * which no one command text says: those words): in the direct message and the assistant thread
 * in place of the failure, on a mention's public thread reply privately to the presser in that
 * thread. Signed events and clicks through Bolt's HTTP receiver, the fake Slack Web API and the
 * sandbox ERP made to fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION } from '../../src/views/actions.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';
import {
  blockActionsPayload,
  interactionForm,
  postToSlackApp,
  SLACK_DEFAULTS,
} from '../helpers/slack/index.js';
import { finalAnswer } from './helpers/conversation.js';
import {
  assistantThreadStartedEvent,
  CHANNEL,
  DM_CHANNEL,
  directMessageEvent,
  mentionEvent,
  nextTs,
  sendEvent,
} from './helpers/words.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp({ timing: { ackWithinMs: 250, workingAfterMs: 500 } });
});
afterAll(async () => {
  await run?.stop();
});

type Call = { method: string; args: Record<string, unknown> };
const answerMethods = ['chat.postMessage', 'chat.update', 'chat.postEphemeral'];
const answers = (): Call[] =>
  run.slack.calls().filter((c) => answerMethods.includes(c.method)) as Call[];

/** The app's last message in `channel` once one says `pattern` (the failure, or an answer). */
async function messageSaying(channel: string, pattern: RegExp, before: number): Promise<Call> {
  for (;;) {
    const found = answers()
      .slice(before)
      .filter((c) => c.args.channel === channel)
      .find((c) => pattern.test(textOf({ blocks: c.args.blocks as unknown[] })));
    if (found) return found;
    // The next answer of any kind: a post, an update of the working line, a private one.
    await Promise.any(
      answerMethods.map((method) =>
        run.slack.waitForCalls(method, run.slack.calls(method).length + 1),
      ),
    );
  }
}

/** The failure a sentence gets while the ERP answers nothing but errors. */
async function failedWhileDown(channel: string, event: Record<string, unknown>): Promise<Call> {
  const before = answers().length;
  run.sandbox.setFaults({ errorRate: 1 });
  try {
    expect((await sendEvent(run, event)).status).toBe(200);
    return await messageSaying(channel, /ERP is not answering/, before);
  } finally {
    run.sandbox.setFaults({ errorRate: 0 });
  }
}

function tryAgainOf(message: Call) {
  const again = buttonsOf({ blocks: message.args.blocks }).find((b) => b.text === 'Try again');
  if (!again) throw new Error('no Try again button');
  return again;
}

/** Try again pressed on the failure the app posted in its own conversation: the final answer. */
async function pressedOnPost(failed: Call) {
  const again = tryAgainOf(failed);
  const sent = await run.click(again.action_id, again.value ?? '', {
    channelId: String(failed.args.channel),
    isEphemeral: false,
    messageText: String(failed.args.text ?? ''),
  });
  return finalAnswer(run, sent.responseUrl);
}

describe('Try again on answers in words', () => {
  it('a direct message: asks the same again, answered in place in the conversation', async () => {
    const failed = await failedWhileDown(
      DM_CHANNEL,
      directMessageEvent('have we got 50 WIDGET-9 in perth?'),
    );
    const again = tryAgainOf(failed);
    expect(JSON.parse(again.value ?? '{}')).toEqual({
      v: 1,
      t: 'rc',
      f: 'stock',
      x: 'WIDGET-9 50 perth',
    });
    const answered = await pressedOnPost(failed);
    expect(answered.replace_original).toBe(true);
    expect(textOf(answered)).toMatch(/Perth/);
    expect(textOf(answered)).not.toMatch(/ERP is not answering/);
  });

  it('a direct message the app is not in (between people): answered privately, not in place', async () => {
    // The button the failure in the test above carried.
    const value = JSON.stringify({ v: 1, t: 'rc', f: 'stock', x: 'WIDGET-9 50 perth' });
    // Slack answers the app so for a direct message between two people.
    run.slack.setFailure('conversations.info', 'channel_not_found');
    try {
      const sent = await run.click(ACTION.commandRetry, value, {
        channelId: 'D0PEOPLE01',
        isEphemeral: false,
      });
      const answered = await finalAnswer(run, sent.responseUrl);
      expect(answered.replace_original).toBe(false);
      expect(answered.response_type).toBe('ephemeral');
      expect(textOf(answered)).toMatch(/Perth/);
    } finally {
      run.slack.setFailure('conversations.info', undefined);
    }
  });

  it('a mention: the thread reply’s Try again answers the presser privately', async () => {
    const failed = await failedWhileDown(
      CHANNEL,
      // Another item: WIDGET-9 is in the cache since the direct message's Try again.
      mentionEvent('have we got 5 WIDGET-90?'),
    );
    // A full member's item answer in a channel: posted in the mention's thread for all.
    expect(failed.method).toBe('chat.postMessage');
    expect(failed.args.thread_ts).toEqual(expect.any(String));
    const again = tryAgainOf(failed);
    // The click as Slack sends it from a thread reply: the message carries its thread.
    const responseUrl = run.slack.responseUrl();
    const payload = blockActionsPayload({
      actionId: again.action_id,
      value: again.value ?? '',
      responseUrl,
      channelId: CHANNEL,
      isEphemeral: false,
      messageText: String(failed.args.text ?? ''),
    });
    const message = { ...(payload.message as object), thread_ts: failed.args.thread_ts };
    const reply = await postToSlackApp(run.eventsUrl, interactionForm({ ...payload, message }), {
      signingSecret: SIGNING_SECRET,
    });
    expect(reply.status).toBe(200);
    const sent = { responseUrl };
    const answered = await finalAnswer(run, sent.responseUrl);
    // On a message the channel sees: a new private answer, the failure left as it is.
    expect(answered.replace_original).not.toBe(true);
    expect(answered.response_type).toBe('ephemeral');
    expect(answered.thread_ts).toBe(failed.args.thread_ts);
    expect(textOf(answered)).toMatch(/WIDGET-90/);
    expect(textOf(answered)).not.toMatch(/ERP is not answering/);
  });

  it('the assistant panel: answered in place, in the thread', async () => {
    const thread = nextTs();
    await sendEvent(run, assistantThreadStartedEvent(thread));
    // Another item again: the others are in the cache.
    const failed = await failedWhileDown(
      DM_CHANNEL,
      directMessageEvent('how many WIDGET-9-CORE in sydney', { thread_ts: thread }),
    );
    expect(failed.args.thread_ts).toBe(thread);
    const answered = await pressedOnPost(failed);
    expect(answered.replace_original).toBe(true);
    expect(textOf(answered)).toMatch(/WIDGET-9-CORE/);
    expect(textOf(answered)).not.toMatch(/ERP is not answering/);
  });

  it('a contact asked by its account’s words and a role: Try again asks the same question', async () => {
    const failed = await failedWhileDown(
      DM_CHANNEL,
      directMessageEvent("who's the purchasing officer at acme industrial"),
    );
    const again = tryAgainOf(failed);
    // No one `/contact` text says it: the button carries the words as the sentence was read.
    expect(JSON.parse(again.value ?? '{}')).toEqual({
      v: 1,
      t: 'rc',
      f: 'contact',
      w: { a: ['acme', 'industrial'], p: ['purchasing', 'officer'] },
    });
    const answered = await pressedOnPost(failed);
    expect(answered.replace_original).toBe(true);
    // The one account its words find, with only the people the role names.
    expect(textOf(answered)).toContain('ACME01');
    expect(textOf(answered)).toContain('Jane Citizen');
    expect(textOf(answered)).not.toContain('John Smith');
    expect(textOf(answered)).not.toMatch(/ERP is not answering/);
  });

  it('a mention about a contact by account words: the asker’s private copy carries Try again', async () => {
    const searches = () => run.sandbox.stats().requests.searchContact ?? 0;
    const searchesBefore = searches();
    const failed = await failedWhileDown(CHANNEL, mentionEvent('who does accounts at acme'));
    // One search and its retries (three attempts): the account the channel would see is not
    // asked of the failing ERP again, which would spend as many calls again and open the
    // breaker on everyone's searches, this Try again's among them.
    expect(searches() - searchesBefore).toBe(3);
    // The channel sees no contact: the failure and its button are the asker's alone.
    expect(failed.method).toBe('chat.postEphemeral');
    expect(failed.args.user).toBe(SLACK_DEFAULTS.userId);
    const again = tryAgainOf(failed);
    expect(JSON.parse(again.value ?? '{}')).toMatchObject({
      f: 'contact',
      w: { a: ['acme'], p: ['account'] },
    });
    const sent = await run.click(again.action_id, again.value ?? '', {
      channelId: CHANNEL,
      isEphemeral: true,
    });
    const answered = await finalAnswer(run, sent.responseUrl);
    // The presser's own message: answered in its place, as the sentence is (several accounts
    // match "acme": their list).
    expect(answered.replace_original).toBe(true);
    expect(textOf(answered)).toMatch(/Contacts matching/);
    expect(textOf(answered)).toContain('ACME01');
    expect(textOf(answered)).not.toMatch(/ERP is not answering/);
  });

  it('a sentence in a channel the ERP answers with bad data: one ERP call, no Try again', async () => {
    const before = answers().length;
    const itemCalls = () => run.sandbox.stats().requests.getItem ?? 0;
    const callsBefore = itemCalls();
    run.sandbox.setFaults({ malformedRate: 1 });
    try {
      expect((await sendEvent(run, mentionEvent('have we got 5 WIDGET-9-BRACKET?'))).status).toBe(
        200,
      );
      const failed = await messageSaying(CHANNEL, /unexpected data/, before);
      expect(buttonsOf({ blocks: failed.args.blocks }).map((b) => b.text)).not.toContain(
        'Try again',
      );
    } finally {
      run.sandbox.setFaults({ malformedRate: 0 });
    }
    // Not asked again through the command: the same answer would fail the same way.
    expect(itemCalls() - callsBefore).toBe(1);
  });

  it('a sentence the ERP answers gets no Try again', async () => {
    const before = answers().length;
    await sendEvent(run, directMessageEvent('have we got 50 WIDGET-9 in perth?'));
    const answer = await messageSaying(DM_CHANNEL, /Perth/, before);
    expect(buttonsOf({ blocks: answer.args.blocks }).map((b) => b.text)).not.toContain('Try again');
  });
});
