/**
 * What a channel sees, from outside: every surface driven through Bolt's real HTTP receiver
 * with signed requests, the sandbox ERP over HTTP and the fake Slack, as a full member typing
 * a lower-case code the catalogue index does not know yet (the crawl is off, as right after a
 * start). Everything posted visibly in a channel (chat.postMessage and chat.update outside
 * direct messages, `in_channel` response_url posts) is scanned for internal figures (cost,
 * account terms), people's phones and e-mails, live mentions nobody intended, and the card's
 * private buttons. Then the access lists and the audience: a refused person and a guest get
 * the refusal or the command's answer privately, never a reading posted in the channel.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_SANDBOX_SEED,
  generateSandboxData,
  moveSandboxStock,
} from '../../src/sandbox/index.js';
import { LOOK_UP_STOCK_CALLBACK_ID } from '../../src/slack/listeners/shortcuts/lookUpStock.js';
import { ACTION } from '../../src/views/actions.js';
import { bend, finalAnswer } from '../e2e/helpers/conversation.js';
import {
  assistantThreadStartedEvent,
  directMessageEvent,
  mentionEvent,
  nextTs,
  sendEvent,
} from '../e2e/helpers/words.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';
import { scan } from '../helpers/leakScan.js';
import { functionExecutedEnvelope } from '../helpers/slack/functionPayloads.js';
import {
  interactionForm,
  messageShortcutPayload,
  postToSlackApp,
  SLACK_DEFAULTS,
} from '../helpers/slack/index.js';
import { failOnEscapedRejections } from './helpers.js';

failOnEscapedRejections();

const COST = /Cost \(internal\)|· cost \d|cost \d+\.\d\d/;
const TERMS = /Credit limit|Discount \d|\bTerms\b|stop credit/i;
/** Live markup nobody asked for: Slack notifies for these in `text` and in mrkdwn alike. */
const BROADCAST = /<!(?:here|channel|everyone)\b/;
const PERSON = /<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g;
const MEMBER = SLACK_DEFAULTS.userId;

const data = generateSandboxData(DEFAULT_SANDBOX_SEED);
// An item whose private card shows a cost, a bill of materials and branches.
const target = data.items.find(
  ({ record }) =>
    record.cost > 0 &&
    record.bom.length > 0 &&
    record.branches.length > 1 &&
    /[A-Z]/.test(record.code) &&
    !/\s/.test(record.code),
)?.record;
if (!target) throw new Error('the sandbox has no item with cost, components and branches');
const typed = target.code.toLowerCase();
// An item whose code and description are markup; found by the description's word.
const hostile = data.items.find(
  ({ record }) => record !== target && record.branches.length > 0 && record.bom.length === 0,
)?.record;
if (!hostile) throw new Error('the sandbox has no second item');
Object.assign(bend(hostile), {
  code: '<!here>-1',
  description: 'zorp-77 widget <!channel> <@U0SOMEONE> <https://evil.example|click>',
});

interface Visible {
  where: string;
  text: string;
  blocks: unknown[];
}

let run: RunningApp;

beforeAll(async () => {
  run = await startApp({
    sandbox: { data },
    env: { CATALOGUE_CRAWL_SHARE: '0', WATCH_MIN_INTERVAL_SECONDS: '1', WATCH_SHARE: '0.9' },
    logLevel: 'info',
    // Date's clock, which the watch test sets to the digest's minute.
    now: () => new Date(),
    slack: { users: { U0GUEST01: { is_restricted: true } } },
  });
});
afterAll(async () => {
  await run?.stop();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Everything anyone in a channel can read: posts and updates outside DMs, in_channel replies. */
function visible(target: RunningApp): Visible[] {
  const inChannel = (channel: unknown) =>
    typeof channel === 'string' && /^[CG]/.test(channel) ? channel : undefined;
  const posts = target.slack
    .calls()
    .filter((c) => ['chat.postMessage', 'chat.update'].includes(c.method))
    .filter((c) => inChannel(c.args.channel) !== undefined)
    .map((c) => ({
      where: `${c.method} ${String(c.args.channel)}`,
      text: String(c.args.text ?? ''),
      blocks: (c.args.blocks as unknown[] | undefined) ?? [],
    }));
  const replies = target.slack
    .responses()
    .filter((r) => (r.body as { response_type?: unknown }).response_type === 'in_channel')
    .map((r) => ({
      where: 'response_url in_channel',
      text: String((r.body as { text?: unknown }).text ?? ''),
      blocks: ((r.body as { blocks?: unknown[] }).blocks as unknown[] | undefined) ?? [],
    }));
  return [...posts, ...replies];
}

/** The mrkdwn Slack parses for markup: the fallback and every mrkdwn text object. */
function mrkdwnOf(message: Visible): string[] {
  const texts = [message.text];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (record.type === 'mrkdwn' && typeof record.text === 'string') texts.push(record.text);
      Object.values(record).forEach(walk);
    }
  };
  walk(message.blocks);
  return texts;
}

/** What is wrong with what the channel sees; empty when nothing is. */
function problems(messages: readonly Visible[]): string[] {
  const found: string[] = [];
  for (const message of messages) {
    const shown = `${message.text}\n${textOf({ blocks: message.blocks })}`;
    const at = `${message.where}: ${shown.slice(0, 160)}`;
    if (COST.test(shown)) found.push(`cost in ${at}`);
    if (TERMS.test(shown)) found.push(`account terms in ${at}`);
    const leak = scan([
      {
        kind: 'message',
        source: 'chat.postMessage',
        text: JSON.stringify({ text: message.text, blocks: message.blocks }),
      },
    ]);
    for (const finding of leak.findings) found.push(`${finding.what} in ${at}`);
    for (const text of mrkdwnOf(message)) {
      if (BROADCAST.test(text)) found.push(`a live broadcast mention in ${at}`);
      for (const [, id] of text.matchAll(PERSON)) {
        // The app names the sharer ("Shared by <@U…>"): the only person a channel post names.
        if (id !== MEMBER) found.push(`a mention of ${id} in ${at}`);
      }
    }
    const privateButtons = buttonsOf({ blocks: message.blocks }).filter((b) =>
      [ACTION.itemPart, ACTION.itemAllBranches, ACTION.itemExpand].some((id) =>
        b.action_id.startsWith(id),
      ),
    );
    for (const button of privateButtons) found.push(`the button ${button.text} in ${at}`);
  }
  return found;
}

/** Resolves once `done` holds, checking as the fake records calls (never a fixed sleep). */
async function until(done: () => boolean, what: string): Promise<void> {
  await vi.waitUntil(done, { timeout: 10_000, interval: 20 }).catch(() => {
    throw new Error(`timed out waiting for ${what}`);
  });
}

/** A mention in the channel, and the thread's answer once it is posted. */
async function mention(text: string, user = MEMBER): Promise<Visible[]> {
  const event = mentionEvent(text, { user });
  const before = run.slack.calls().length;
  expect((await sendEvent(run, event)).status).toBe(200);
  const mine = () =>
    run.slack
      .calls()
      .slice(before)
      .filter((c) => c.args.thread_ts === event.ts && c.method !== 'chat.postEphemeral');
  const privately = () =>
    run.slack
      .calls()
      .slice(before)
      .some((c) => c.method === 'chat.postEphemeral' && c.args.thread_ts === event.ts);
  await until(() => mine().length > 0 || privately(), `an answer to "${text}"`);
  return mine().map((c) => ({
    where: `thread of "${text}"`,
    text: String(c.args.text ?? ''),
    blocks: (c.args.blocks as unknown[] | undefined) ?? [],
  }));
}

/** The ephemeral answers a mention got in its thread. */
function ephemeralIn(threadTs: string) {
  return run.slack
    .calls('chat.postEphemeral')
    .filter((c) => c.args.thread_ts === threadTs)
    .map((c) => ({ user: c.args.user, text: textOf(c.args) }));
}

describe('what a channel sees, whatever the surface, as a member typing a lower-case code', () => {
  it('a mention about the code: the shared card of the item, resolved by the search', async () => {
    const thread = await mention(`how many ${typed} in perth?`);
    expect(problems(thread)).toEqual([]);
    const [card] = thread;
    expect(textOf({ blocks: card?.blocks ?? [] })).toContain(target.code);
    expect(buttonsOf({ blocks: card?.blocks ?? [] }).some((b) => b.text === 'View')).toBe(true);
  });

  it('a mention in words a channel cannot be trusted with: asked back or said, never live markup', async () => {
    const nearCode = await mention('how many zorp-77?');
    expect(nearCode.map((m) => m.text).join('\n')).toContain('&lt;!here&gt;-1');
    for (const sentence of [
      'promo &lt;!here&gt;',
      'promo &amp;lt;!here&amp;gt;',
      'credit limit for ACME01',
      'what are the terms for ACME01',
      `ACME01 ${typed}`,
      'who does accounts at ACME01',
      `${typed}, zorp-77`,
      'help',
    ]) {
      const thread = await mention(sentence);
      expect(problems(thread), sentence).toEqual([]);
    }
    // Typed as `&lt;` (sent as `&amp;lt;`): shown as typed, not decoded into markup.
    const typedEntities = await mention('promo &amp;lt;!here&amp;gt;');
    expect(typedEntities[0]?.text).toContain('&amp;lt;!here&amp;gt');
  });

  it('a command, its Share, the message shortcut, a DM and the assistant: only the Share is seen, as a shared card', async () => {
    const sent = await run.command('/stock', `${typed} 5 perth`);
    const answer = sent.ack?.blocks
      ? sent.ack
      : (await run.slack.waitForResponses(sent.responseUrl, 1, 10_000)).at(-1)?.body;
    // The member's own card carries the cost: it is the private answer.
    expect(textOf(answer ?? {})).toMatch(COST);
    const share = buttonsOf(answer ?? {}).find((b) => b.action_id.startsWith(ACTION.itemShare));
    if (!share?.value) throw new Error('no Share button on the command answer');
    const pressed = await run.click(share.action_id, share.value, {});
    await run.slack.waitForResponses(pressed.responseUrl, 1, 10_000);
    await until(
      () => visible(run).some((m) => m.where === 'response_url in_channel'),
      'the shared card',
    );

    const responseUrl = run.slack.responseUrl();
    const shortcut = await postToSlackApp(
      run.eventsUrl,
      interactionForm(
        messageShortcutPayload({
          callbackId: LOOK_UP_STOCK_CALLBACK_ID,
          messageText: `Can we ship ${typed} today? <!here>`,
          responseUrl,
        }),
      ),
      { signingSecret: SIGNING_SECRET },
    );
    expect(shortcut.status).toBe(200);
    await run.slack.waitForResponses(responseUrl, 1, 10_000);

    const before = run.slack.calls('chat.postMessage').length;
    await sendEvent(run, directMessageEvent(`how many ${typed} in perth?`));
    const threadTs = nextTs();
    await sendEvent(run, assistantThreadStartedEvent(threadTs));
    await sendEvent(
      run,
      directMessageEvent(`have we got 5 ${typed}?`, { thread_ts: threadTs, channel_type: 'im' }),
    );
    await until(
      () => run.slack.calls('chat.postMessage').length >= before + 2,
      'the DM and assistant answers',
    );
    expect(problems(visible(run))).toEqual([]);
    expect(visible(run).filter((m) => m.where === 'response_url in_channel')).toHaveLength(1);
  });

  it('the workflow step: outputs a later step may post carry no markup and no cost', async () => {
    const body = functionExecutedEnvelope({ item_code: '<!here>-1', quantity: 1 });
    const reply = await postToSlackApp(run.eventsUrl, JSON.stringify(body), {
      signingSecret: SIGNING_SECRET,
      contentType: 'application/json',
    });
    expect(reply.status).toBe(200);
    const done = () =>
      run.slack
        .calls()
        .filter(
          (c) =>
            c.method.startsWith('functions.') &&
            c.args.function_execution_id === body.event.function_execution_id,
        );
    await until(() => done().length > 0, 'the workflow step');
    const outputs = JSON.stringify(done()[0]?.args ?? {});
    expect(done()[0]?.method).toBe('functions.completeSuccess');
    expect(outputs).toContain('zorp-77');
    expect(outputs).not.toMatch(BROADCAST);
    expect(outputs).not.toMatch(/<@U|<https?:/);
    expect(outputs).not.toMatch(COST);
  });

  it('a watch alert and the digest in the channel show neither cost nor live markup', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 27, 7, 58));
    const channel = 'C0SEEWATCH';
    moveSandboxStock(data, target.code, { available: 50 });
    // The watch command takes the code as the ERP spells it (its own lookup decides).
    const made = await run.command('/stock', `watch ${target.code} below 10`, {
      channel_id: channel,
    });
    expect(textOf(await finalAnswer(run, made.responseUrl, made.ack))).toContain('Watch set');
    const digest = await run.command('/stock', 'digest on 08:00', { channel_id: channel });
    expect(textOf(await finalAnswer(run, digest.responseUrl, digest.ack))).toContain('digest on');
    moveSandboxStock(data, target.code, { available: 4 });
    vi.setSystemTime(Date.UTC(2026, 10, 27, 8, 0, 5));
    expect(await run.services.watches.checker.checkNow(target.code)).toBe(true);
    await run.services.watches.checker.tick();
    const seen = visible(run).filter((m) => m.where.endsWith(channel));
    expect(seen.some((m) => /below 10/.test(m.text))).toBe(true);
    expect(seen.some((m) => /digest/i.test(m.text))).toBe(true);
    expect(problems(seen)).toEqual([]);
  });
});

describe('the access lists and the audience come before any reading', () => {
  let listed: RunningApp;
  const ALLOWED = 'U0ALLOWED1';
  beforeAll(async () => {
    listed = await startApp({
      env: { STOCK_ALLOWED_USERS: ALLOWED, CONTACT_ALLOWED_USERS: ALLOWED },
      logLevel: 'info',
      slack: { users: { [ALLOWED]: {}, U0GUEST01: { is_restricted: true } } },
    });
  });
  afterAll(async () => {
    await listed?.stop();
  });

  it('a refused person gets the refusal alone, privately, on every reading', async () => {
    // An allowed member's lookups teach the index the items, so words can be "not sure".
    await listed.command('/stock', 'blue widget', { user_id: ALLOWED });
    for (const sentence of ['blue widget', 'zxqv plorp', 'how many WIDGET-9?', 'help']) {
      const event = mentionEvent(sentence);
      await sendEvent(listed, event);
      await vi.waitUntil(
        () => listed.slack.calls('chat.postEphemeral').some((c) => c.args.thread_ts === event.ts),
        { timeout: 10_000, interval: 20 },
      );
      const answers = listed.slack
        .calls()
        .filter((c) => c.args.thread_ts === event.ts)
        .map((c) => ({ method: c.method, text: textOf(c.args) }));
      expect(answers, sentence).toEqual([
        { method: 'chat.postEphemeral', text: expect.stringContaining('not enabled') },
      ]);
      expect(answers[0]?.text).not.toContain('WIDGET-9 ');
    }
    const dm = directMessageEvent('blue widget');
    await sendEvent(listed, dm);
    await vi.waitUntil(
      () => listed.slack.calls('chat.postMessage').some((c) => c.args.channel === dm.channel),
      { timeout: 10_000, interval: 20 },
    );
    const reply = listed.slack
      .calls('chat.postMessage')
      .filter((c) => c.args.channel === dm.channel);
    expect(reply.map((c) => textOf(c.args))).toEqual([expect.stringContaining('not enabled')]);
  });

  it('a guest gets what the command gives them, in the thread, privately', async () => {
    for (const sentence of ['blue widget', 'zxqv plorp', 'how many WIDGET-9?']) {
      const event = mentionEvent(sentence, { user: 'U0GUEST01' });
      await sendEvent(run, event);
      await until(() => ephemeralIn(event.ts).length > 0, `the guest's answer to ${sentence}`);
      const posted = run.slack
        .calls('chat.postMessage')
        .filter((c) => c.args.thread_ts === event.ts);
      expect(posted, sentence).toEqual([]);
      expect(ephemeralIn(event.ts).map((m) => m.user)).toEqual(['U0GUEST01']);
      expect(ephemeralIn(event.ts)[0]?.text ?? '').not.toMatch(COST);
    }
  });
});
