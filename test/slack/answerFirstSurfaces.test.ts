/**
 * The answer-first surfaces past the commands, end to end: signed payloads to the real Bolt
 * app, the sandbox ERP over HTTP. Shared cards say who shared them and only the sharer can
 * take them back; Reveal after `/contact CODE words` reveals (and audits) only those people;
 * the message shortcut answers in the message's thread, and what is opened and shared from
 * that answer stays there; codes past the fifth are named; lower-case and accented codes count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMessageLimits } from '../../src/views/blocks.js';
import type { SlackMessage } from '../../src/views/message.js';
import { ask, type Message } from '../e2e/helpers/conversation.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonsOf, type FoundButton, textOf } from '../helpers/blocks.js';
import {
  blockActionsPayload,
  interactionForm,
  messageShortcutPayload,
  postToSlackApp,
  SLACK_DEFAULTS,
} from '../helpers/slack/index.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp();
});
afterAll(async () => {
  await run?.stop();
});

interface ClickOptions {
  userId?: string;
  /** Clicked on a message everyone sees (shared), with these blocks. */
  shared?: Message;
}

/** Presses a button as a signed block_actions payload; the posts to its response_url. */
async function press(button: FoundButton, options: ClickOptions = {}) {
  const responseUrl = run.slack.responseUrl();
  const payload = blockActionsPayload({
    actionId: button.action_id,
    value: button.value ?? '',
    responseUrl,
    ...(options.userId ? { userId: options.userId } : {}),
    ...(options.shared ? { isEphemeral: false, messageBlocks: options.shared.blocks ?? [] } : {}),
  });
  const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
    signingSecret: SIGNING_SECRET,
  });
  expect(reply.status).toBe(200);
  const posts = await run.slack.waitForResponses(responseUrl, 1, 8000);
  return posts.map((p) => p.body as Message);
}

const labelled = (message: Message, label: string): FoundButton => {
  const found = buttonsOf(message).find((b) => b.text.startsWith(label));
  if (!found) throw new Error(`no "${label}" button in: ${textOf(message).slice(0, 300)}`);
  return found;
};

async function shortcut(messageText: string, threadTs?: string): Promise<Message> {
  const responseUrl = run.slack.responseUrl();
  const payload = messageShortcutPayload({
    callbackId: 'stock_lookup_message',
    messageText,
    responseUrl,
    ...(threadTs ? { threadTs } : {}),
  });
  const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
    signingSecret: SIGNING_SECRET,
  });
  expect(reply.status).toBe(200);
  const posts = await run.slack.waitForResponses(responseUrl, 1, 8000);
  return (posts.at(-1)?.body ?? {}) as Message;
}

describe('shared messages: Shared by @name, and Remove for the sharer only', () => {
  it('shares the verdict with the card, names the sharer and lets only them remove it', async () => {
    const card = await ask(run, '/stock', 'WIDGET-9 5');
    const [posted] = await press(labelled(card, 'Share to channel'));
    expect(posted?.response_type).toBe('in_channel');
    expect(textOf(posted ?? {})).toContain(`Shared by <@${SLACK_DEFAULTS.userId}>`);
    expect(String(posted?.text)).toMatch(/: (Yes|No), 5 of WIDGET-9/);
    expect(checkMessageLimits(posted as SlackMessage)).toEqual([]);
    const remove = labelled(posted ?? {}, 'Remove');

    const [refused] = await press(remove, { userId: 'UOTHER01', shared: posted });
    expect(refused?.response_type).toBe('ephemeral');
    expect(refused?.replace_original).toBe(false);
    expect(textOf(refused ?? {})).toContain(`Only <@${SLACK_DEFAULTS.userId}> can remove`);
    expect(refused?.delete_original).toBeUndefined();

    const [removed] = await press(remove, { shared: posted });
    expect(removed).toEqual({ delete_original: true });
    // The sharer's own "Shared to #…" confirmation (through the Share click's response_url,
    // after the shared post and the confirmation) now says it was removed.
    const shareUrl = run.slack.responses().find((r) => r.body === posted)?.url ?? '';
    const [, confirmed, updated] = await run.slack.waitForResponses(shareUrl, 3, 8000);
    expect(textOf(confirmed?.body ?? {})).toContain('Shared to');
    expect(updated?.body.replace_original).toBe(true);
    expect(textOf(updated?.body ?? {})).toContain('Removed what you shared to');
  });

  it('a forged Remove value is refused without deleting anything', async () => {
    for (const value of [
      JSON.stringify({ v: 1, t: 'rm', u: 'not a user' }),
      JSON.stringify({ v: 1, t: 'rm', s: 'not a share id' }),
    ]) {
      const [answer] = await press({
        action_id: 'shared_remove',
        block_id: 'actions',
        text: 'Remove',
        value,
      });
      expect(answer?.delete_original).toBeUndefined();
      expect(answer?.replace_original).toBe(false);
    }
  });
});

describe('/contact CODE words: Reveal reveals only the matching people, audited with the count', () => {
  it('reveals John Smith only and records one person', async () => {
    const card = await ask(run, '/contact', 'ACME01 accounts');
    const [revealed] = await press(labelled(card, 'Reveal'));
    const text = textOf(revealed ?? {});
    expect(text).toContain('John Smith');
    expect(text).not.toContain('Jane Citizen');
    const audit = run.logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.event === 'contact_reveal');
    expect(audit.at(-1)).toMatchObject({ outcome: 'revealed', contactCode: 'ACME01', people: 1 });
  });

  it('a search of several words that finds nothing is retried and says so', async () => {
    const answer = await ask(run, '/contact', 'acme accounts');
    expect(textOf(answer)).toContain('No contact matched “acme accounts”');
    expect(checkMessageLimits(answer as SlackMessage)).toEqual([]);
  });
});

describe('the message shortcut', () => {
  const thread = '1716000000.000100';

  it('answers in the thread; a card opened from it, and its Share, stay in the thread', async () => {
    const answer = await shortcut('Can we ship WIDGET-9 today?', thread);
    expect(answer.thread_ts).toBe(thread);
    const view = labelled(answer, 'View');
    expect(JSON.parse(view.value ?? '{}')).toMatchObject({ r: { c: 'WIDGET-9' }, th: thread });
    const [card] = await press(view);
    expect(card?.thread_ts).toBe(thread);
    const [shared] = await press(labelled(card ?? {}, 'Share to channel'));
    expect(shared?.response_type).toBe('in_channel');
    expect(shared?.thread_ts).toBe(thread);
  });

  it('answers at channel level when the message is not in a thread', async () => {
    const answer = await shortcut('WIDGET-9 please');
    expect(answer.thread_ts).toBeUndefined();
    expect(JSON.parse(labelled(answer, 'View').value ?? '{}').th).toBeUndefined();
  });

  it('names the codes past the fifth instead of dropping them', async () => {
    const answer = await shortcut('A1X1 B2X2 C3X3 D4X4 E5X5 F6X6 G7X7');
    expect(textOf(answer)).toContain('+2 more, not looked up: `F6X6`, `G7X7`');
  });

  it('finds lower-case and accented codes the catalogue knows, and not ordinary words', async () => {
    const gets = run.sandbox.stats().requests.getItem ?? 0;
    const answer = await shortcut('need widget-9 and WÍDGET-9-CORE, also mp3 files');
    const text = textOf(answer);
    expect(text).toContain('`WIDGET-9`');
    expect(text).toContain('`WIDGET-9-CORE`');
    expect(text).not.toMatch(/mp3/i);
    expect((run.sandbox.stats().requests.getItem ?? 0) - gets).toBeLessThanOrEqual(2);
  });
});
