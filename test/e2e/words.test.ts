/**
 * Asking in words, from outside: signed events as Slack sends them, through Bolt's real HTTP
 * receiver, the app answering through the (fake) Slack Web API and the sandbox ERP over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOK_UP_STOCK_CALLBACK_ID } from '../../src/slack/listeners/shortcuts/lookUpStock.js';
import { SET_WATCH_ACTION } from '../../src/views/words.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';
import {
  interactionForm,
  messageShortcutPayload,
  postToSlackApp,
  SLACK_DEFAULTS,
} from '../helpers/slack/index.js';
import { ask } from './helpers/conversation.js';
import {
  assistantThreadStartedEvent,
  CHANNEL,
  DM_CHANNEL,
  directMessageEvent,
  erpCalls,
  mentionEvent,
  nextTs,
  posted,
  sendEvent,
} from './helpers/words.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp();
});

afterAll(async () => {
  await run.stop();
});

/** Waits until `count` messages (any kind) were posted in all, then returns the new ones. */
async function answersAfter(before: number, count: number) {
  await run.slack.waitForCalls('chat.postMessage', 0);
  const wanted = before + count;
  const deadline = Date.now() + 8000;
  // Waits on the fake's recorded calls (events, not a fixed sleep).
  for (;;) {
    const all = posted(run);
    if (all.length >= wanted) return all.slice(before);
    if (Date.now() > deadline)
      throw new Error(`wanted ${count} answer(s), got ${all.length - before}`);
    await run.slack
      .waitForCalls('chat.postMessage', run.slack.calls('chat.postMessage').length + 1, 200)
      .catch(() => undefined);
  }
}

describe('a direct message', () => {
  it('gets the verdict the command gives, once, in the conversation', async () => {
    const before = posted(run).length;
    const event = directMessageEvent('have we got 50 WIDGET-9 in perth?');
    const reply = await sendEvent(run, event);
    expect(reply.status).toBe(200);
    const [answer, ...more] = await answersAfter(before, 1);
    expect(answer?.method).toBe('chat.postMessage');
    expect(answer?.channel).toBe(DM_CHANNEL);
    expect(answer?.text).toMatch(/No|Yes/);
    expect(answer?.text).toContain('Perth');
    expect(more).toEqual([]);

    // Slack's retry of that event, and the same delivery again: no second answer.
    await sendEvent(run, event, {
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });
    await sendEvent(run, event);
    // An edit, a deletion, a bot's message and the app's own: no answer either.
    await sendEvent(run, {
      type: 'message',
      subtype: 'message_changed',
      channel: DM_CHANNEL,
      channel_type: 'im',
      ts: nextTs(),
      message: { type: 'message', user: SLACK_DEFAULTS.userId, text: 'WIDGET-9?', ts: event.ts },
    });
    await sendEvent(run, {
      type: 'message',
      subtype: 'message_deleted',
      channel: DM_CHANNEL,
      channel_type: 'im',
      ts: nextTs(),
      deleted_ts: event.ts,
    });
    await sendEvent(run, directMessageEvent('WIDGET-9?', { bot_id: 'B0OTHERBOT' }));
    await sendEvent(
      run,
      directMessageEvent('WIDGET-9?', {
        user: SLACK_DEFAULTS.botUserId,
        bot_id: SLACK_DEFAULTS.botId,
      }),
    );
    // A sentinel that is answered: everything sent before it has been handled by then.
    await sendEvent(run, directMessageEvent('help'));
    const after = await answersAfter(before + 1, 1);
    expect(after).toHaveLength(1);
    expect(after[0]?.text).toContain('Ask in words');
  });

  it('answers a sentence it cannot read with two examples and no ERP call', async () => {
    const before = posted(run).length;
    const calls = erpCalls(run);
    await sendEvent(run, directMessageEvent('zxqv plorp'));
    const [answer] = await answersAfter(before, 1);
    expect(answer?.text).toContain('For example');
    expect(erpCalls(run)).toBe(calls);
  });

  it('spends no more ERP calls than the command it reads as', async () => {
    // Records no test has looked up, so neither answer comes from the cache.
    const items = run.sandbox.data.items.slice(600, 602).map((item) => item.record.code);
    const contacts = run.sandbox.data.contacts.slice(200, 202).map((c) => c.record.code);
    const cost = async (send: () => Promise<unknown>) => {
      const calls = erpCalls(run);
      await send();
      return erpCalls(run) - calls;
    };
    const viaSentence = async (text: string) => {
      const before = posted(run).length;
      await sendEvent(run, directMessageEvent(text));
      await answersAfter(before, 1);
    };
    const viaCommand = async (name: string, text: string) => {
      await ask(run, name, text);
    };
    const sentenceItem = await cost(() => viaSentence(`can I get 5 x ${items[0]} from hobart`));
    const commandItem = await cost(() => viaCommand('/stock', `${items[1]} 5 hobart`));
    expect(sentenceItem).toBeGreaterThan(0);
    expect(sentenceItem).toBeLessThanOrEqual(commandItem);
    const sentenceContact = await cost(() => viaSentence(`who does accounts at ${contacts[0]}`));
    const commandContact = await cost(() => viaCommand('/contact', `${contacts[1]} accounts`));
    expect(sentenceContact).toBeGreaterThan(0);
    expect(sentenceContact).toBeLessThanOrEqual(commandContact);
  });

  it('proposes a watch with Set watch, and makes none until it is pressed', async () => {
    const before = posted(run).length;
    // A conversation of its own: the embedded database is shared by the test files of one process.
    const channel = `D0W${Date.now().toString(36).toUpperCase()}`;
    await sendEvent(
      run,
      directMessageEvent('tell me when WIDGET-9 drops below 20 in perth', { channel }),
    );
    const [answer] = await answersAfter(before, 1);
    expect(answer?.text).toContain('Set watch');
    const { watches } = run.services;
    expect((await watches.service.listChannel(channel)).watches).toEqual([]);

    const proposal = run.slack.calls('chat.postMessage').at(-1)?.args ?? {};
    const [button] = buttonsOf({ blocks: proposal.blocks });
    expect(button?.action_id).toBe(SET_WATCH_ACTION);
    const sent = await run.click(SET_WATCH_ACTION, button?.value ?? '', {
      channelId: channel,
      isEphemeral: false,
      messageBlocks: proposal.blocks as unknown[],
    });
    expect(sent.reply.status).toBe(200);
    await run.slack.waitForResponses(sent.responseUrl, 1, 8000);
    const made = (await watches.service.listChannel(channel)).watches;
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ code: 'WIDGET-9', direction: 'below', threshold: 20 });
  });
});

describe('a mention', () => {
  it('in a channel is answered in its thread with a redacted card, once', async () => {
    const before = posted(run).length;
    const event = mentionEvent('have we got 50 WIDGET-9 in perth?');
    await sendEvent(run, event);
    const [answer] = await answersAfter(before, 1);
    expect(answer?.method).toBe('chat.postMessage');
    expect(answer?.channel).toBe(CHANNEL);
    expect(answer?.thread_ts).toBe(event.ts);
    expect(answer?.text).toContain('Perth');
    // An internal figure never reaches a channel.
    expect(answer?.text).not.toMatch(/cost/i);
    await sendEvent(run, event, { 'x-slack-retry-num': '2' });
    await sendEvent(run, mentionEvent('help'));
    const after = await answersAfter(before + 1, 1);
    expect(after).toHaveLength(1);
  });

  it('in a thread is answered in that thread', async () => {
    const before = posted(run).length;
    const parent = nextTs();
    await sendEvent(run, mentionEvent('is WIDGET-90 in stock?', { thread_ts: parent }));
    const [answer] = await answersAfter(before, 1);
    expect(answer?.thread_ts).toBe(parent);
    expect(answer?.text).toContain('WIDGET-90');
  });

  it('about a contact shows the channel the account only; the asker gets the card privately', async () => {
    const before = posted(run).length;
    const event = mentionEvent('who does accounts at ACME01');
    await sendEvent(run, event);
    const answers = await answersAfter(before, 2);
    const shown = answers.find((a) => a.method === 'chat.postMessage');
    const mine = answers.find((a) => a.method === 'chat.postEphemeral');
    expect(shown?.text).toContain('ACME01');
    expect(shown?.thread_ts).toBe(event.ts);
    const people =
      run.sandbox.data.contacts.find((c) => c.record.code === 'ACME01')?.record.addressbook ?? [];
    expect(people.length).toBeGreaterThan(0);
    for (const person of people) expect(shown?.text).not.toContain(person.name);
    expect(shown?.text).not.toMatch(/@|Credit limit|Phone/);
    expect(mine?.user).toBe(SLACK_DEFAULTS.userId);
    expect(mine?.thread_ts).toBe(event.ts);
    expect(mine?.text).toContain('John Smith');
  });

  it('is ACMEWH01 on stop credit?: the line leads the asker’s copy; the thread sees the account only', async () => {
    const before = posted(run).length;
    const event = mentionEvent('is ACMEWH01 on stop credit?');
    await sendEvent(run, event);
    const answers = await answersAfter(before, 2);
    const shown = answers.find((a) => a.method === 'chat.postMessage');
    const mine = answers.find((a) => a.method === 'chat.postEphemeral');
    expect(shown?.text).toContain('ACMEWH01');
    // An account term: not in the thread while SHARE_ACCOUNT_TERMS is off.
    expect(shown?.text).not.toMatch(/stop credit/i);
    expect(mine?.user).toBe(SLACK_DEFAULTS.userId);
    expect(mine?.text).toMatch(/^ACMEWH01 is on stop credit/);
  });
});

describe('the assistant panel', () => {
  it('offers prompts on a new thread, then titles, shows a status and answers in the thread', async () => {
    const thread = nextTs();
    await sendEvent(run, assistantThreadStartedEvent(thread));
    const [prompts] = await run.slack.waitForCalls('assistant.threads.setSuggestedPrompts', 1);
    expect(prompts?.reply).toMatchObject({ ok: true });
    const before = posted(run).length;
    await sendEvent(run, directMessageEvent('how many WIDGET-9 in sydney', { thread_ts: thread }));
    const [answer] = await answersAfter(before, 1);
    expect(answer?.thread_ts).toBe(thread);
    expect(answer?.text).toContain('Sydney');
    // Direct messages get a status of their own too: this thread's is the one asked about.
    const statuses = await run.slack.waitForCalls('assistant.threads.setStatus', 1);
    const status = statuses.find((call) => call.args.thread_ts === thread);
    expect(String(status?.args.status)).toContain('WIDGET-9');
    const [title] = await run.slack.waitForCalls('assistant.threads.setTitle', 1);
    expect(title?.reply).toMatchObject({ ok: true });
  });
});

describe('the commands read a sentence their grammar does not', () => {
  it('/stock with a quantity before the code answers the verdict, not "No items match"', async () => {
    const answer = await ask(run, '/stock', '50 x WIDGET-9 in perth');
    expect(textOf(answer)).toContain('Perth');
    expect(textOf(answer)).not.toMatch(/No items match/);
  });

  it('/stock as a question in words', async () => {
    const answer = await ask(run, '/stock', 'do we have 50 WIDGET-9 in perth?');
    expect(textOf(answer)).toContain('Perth');
  });

  it('/stock with a watch in words proposes it', async () => {
    const answer = await ask(run, '/stock', 'alert me when WIDGET-9 &lt; 10');
    expect(buttonsOf(answer).map((b) => b.text)).toContain('Set watch');
  });

  it('/stock words that are a search stay a search', async () => {
    const answer = await ask(run, '/stock', 'blue widget');
    expect(textOf(answer)).toMatch(/Items matching/);
  });

  it('/contact as a question in words', async () => {
    const answer = await ask(run, '/contact', 'who does accounts at ACME01');
    expect(textOf(answer)).toContain('ACME01');
    expect(textOf(answer)).toContain('John Smith');
  });

  it('the message shortcut reads a quantity and a branch next to a code', async () => {
    const responseUrl = run.slack.responseUrl();
    const reply = await postToSlackApp(
      run.eventsUrl,
      interactionForm(
        messageShortcutPayload({
          callbackId: LOOK_UP_STOCK_CALLBACK_ID,
          messageText: 'Customer wants 20 x WIDGET-9 for Perth, can we?',
          responseUrl,
        }),
      ),
      { signingSecret: SIGNING_SECRET },
    );
    expect(reply.status).toBe(200);
    const posts = await run.slack.waitForResponses(responseUrl, 1, 8000);
    const last = posts.at(-1)?.body ?? {};
    expect(textOf(last)).toContain('Perth');
    expect(textOf(last)).toMatch(/20/);
  });
});
