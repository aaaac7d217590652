/**
 * STOCK_ALLOWED_USERS / CONTACT_ALLOWED_USERS on every surface, through Bolt's real HTTP
 * receiver with signed requests: a user not on the lists gets no ERP call, no card, no modal,
 * no typeahead options and no App Home, on commands, buttons, both shortcuts, the modal's
 * typeahead, selection and submission, and the Home tab.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOK_UP_STOCK_CALLBACK_ID } from '../../src/slack/listeners/shortcuts/lookUpStock.js';
import { STOCK_SEARCH_CALLBACK_ID } from '../../src/slack/listeners/shortcuts/searchStock.js';
import { ACTION, encodeState } from '../../src/views/actions.js';
import { SEARCH } from '../../src/views/searchModal.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { eventually } from '../helpers/eventually.js';
import {
  interactionForm,
  messageShortcutPayload,
  postToSlackApp,
  SLACK_DEFAULTS,
} from '../helpers/slack/index.js';
import {
  appHomeOpenedEnvelope,
  blockSuggestionPayload,
  globalShortcutPayload,
  modalSelectPayload,
  viewSubmissionPayload,
} from '../helpers/slack/searchPayloads.js';

const ALLOWED = 'UALLOWED01';
let run: RunningApp;

beforeAll(async () => {
  expect(SLACK_DEFAULTS.userId).not.toBe(ALLOWED);
  run = await startApp({
    env: { STOCK_ALLOWED_USERS: ALLOWED, CONTACT_ALLOWED_USERS: ALLOWED },
  });
});
afterAll(async () => {
  await run?.stop();
});

const erpCalls = () =>
  Object.values(run.sandbox.stats().requests).reduce((sum, n) => sum + (n ?? 0), 0);

async function interaction(payload: object) {
  const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
    signingSecret: SIGNING_SECRET,
  });
  expect(reply.status).toBe(200);
  return reply.json as Record<string, unknown> | undefined;
}

/** Log lines so far that say `message`: each refusal is logged once it is decided. */
const logged = (message: string) => run.logLines.filter((line) => line.includes(message)).length;
const openView = { id: 'V0ACCESS', callback_id: SEARCH.callbackId };

describe('a user not on the access lists', () => {
  it('is refused /stock and /contact on the acknowledgement, with no ERP call', async () => {
    const before = erpCalls();
    for (const name of ['/stock', '/contact']) {
      const { reply, ack } = await run.command(name, 'WIDGET-9');
      expect(reply.status).toBe(200);
      expect(textOf(ack ?? {}), name).toMatch(/not enabled for your account/);
    }
    expect(erpCalls()).toBe(before);
  });

  it('is refused on item and contact buttons', async () => {
    const before = erpCalls();
    const cases: Array<[string, string]> = [
      [ACTION.itemView, encodeState({ v: 1, t: 'i', r: { c: 'WIDGET-9' } })],
      [ACTION.contactView, encodeState({ v: 1, t: 'c', r: { c: 'ACME01' } })],
      // Try again on a contact asked in words (`who's the purchasing officer at acme …`).
      [
        ACTION.commandRetry,
        encodeState({
          v: 1,
          t: 'rc',
          f: 'contact',
          w: { a: ['acme', 'industrial'], p: ['purchasing', 'officer'] },
        }),
      ],
    ];
    for (const [actionId, value] of cases) {
      const { responseUrl } = await run.click(actionId, value);
      const [answer] = await run.slack.waitForResponses(responseUrl, 1);
      expect(textOf(answer?.body ?? {}), actionId).toMatch(/not enabled for your account/);
    }
    expect(erpCalls()).toBe(before);
  });

  it('is refused by the message shortcut', async () => {
    const before = erpCalls();
    const responseUrl = run.slack.responseUrl();
    await interaction(
      messageShortcutPayload({
        callbackId: LOOK_UP_STOCK_CALLBACK_ID,
        responseUrl,
        messageText: 'Is WIDGET-9 in?',
      }),
    );
    const [answer] = await run.slack.waitForResponses(responseUrl, 1);
    expect(textOf(answer?.body ?? {})).toMatch(/not enabled for your account/);
    expect(erpCalls()).toBe(before);
  });

  it('gets no modal from the global shortcut or the App Home button', async () => {
    const refused = 'search modal refused by STOCK_ALLOWED_USERS';
    const before = logged(refused);
    await interaction(globalShortcutPayload(STOCK_SEARCH_CALLBACK_ID));
    await interaction(
      modalSelectPayload({
        view: openView,
        actionId: SEARCH.homeButton,
        blockId: 'home',
        type: 'static_select',
        value: 'open',
      }),
    );
    // Both were refused (and so went no further than that).
    await eventually(() => expect(logged(refused) - before).toBe(2));
    expect(run.slack.calls('views.open')).toEqual([]);
  });

  it('gets no typeahead options, no card for a selection, and cannot share from the modal', async () => {
    const before = erpCalls();
    const selectionRefused = 'search modal selection refused by access rules';
    const selectionsBefore = logged(selectionRefused);
    const options = await interaction(
      blockSuggestionPayload({
        view: openView,
        actionId: SEARCH.itemAction,
        blockId: SEARCH.itemBlock,
        value: 'wid',
      }),
    );
    expect(options).toEqual({ options: [] });
    await interaction(
      modalSelectPayload({
        view: openView,
        actionId: SEARCH.itemAction,
        blockId: SEARCH.itemBlock,
        type: 'external_select',
        value: 'WIDGET-9',
      }),
    );
    const submitted = await interaction(
      viewSubmissionPayload({
        view: { ...openView, private_metadata: JSON.stringify({ code: 'WIDGET-9' }) },
        values: {
          [SEARCH.shareBlock]: {
            [SEARCH.shareAction]: {
              type: 'conversations_select',
              selected_conversation: 'C0FAKESHARE',
            },
          },
        },
      }),
    );
    expect(submitted).toMatchObject({ response_action: 'errors' });
    expect(JSON.stringify(submitted)).toMatch(/not enabled for your account/);
    // The selection was refused (its listener acknowledges first, then decides).
    await eventually(() => expect(logged(selectionRefused) - selectionsBefore).toBe(1));
    expect(run.slack.calls('views.update')).toEqual([]);
    expect(run.slack.calls('chat.postMessage')).toEqual([]);
    expect(erpCalls()).toBe(before);
  });

  it('is published only a short refusal on App Home, with nothing to press', async () => {
    const reply = await postToSlackApp(run.eventsUrl, JSON.stringify(appHomeOpenedEnvelope()), {
      signingSecret: SIGNING_SECRET,
      contentType: 'application/json',
    });
    expect(reply.status).toBe(200);
    const published = await run.slack.waitForCalls('views.publish', 1);
    expect(published).toHaveLength(1);
    const json = JSON.stringify(published[0]?.args.view);
    expect(json).toContain('not open to you');
    expect(json).not.toContain('"actions"');
  });

  it('while a user on the lists is answered', async () => {
    const { ack } = await run.command('/stock', 'WIDGET-9', { user_id: ALLOWED });
    expect(textOf(ack ?? {})).toContain('WIDGET-9');
  });
});
