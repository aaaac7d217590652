/**
 * Issue 34's watch and share reproductions, sent from outside with correctly signed requests
 * through Bolt's real HTTP receiver (sandbox ERP over HTTP, the fake Slack, an embedded
 * database in a DATA_DIR): each is refused or harmless, and its legitimate form still works.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveSandboxStock } from '../../src/sandbox/index.js';
import { WATCH_MODAL } from '../../src/views/watchModal.js';
import { type RunningApp, type Sent, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { eventually } from '../helpers/eventually.js';
import { interactionForm, postToSlackApp } from '../helpers/slack/index.js';
import { SLACK_DEFAULTS } from '../helpers/slack/payloads.js';
import { viewSubmissionPayload } from '../helpers/slack/searchPayloads.js';

const MEMBER = SLACK_DEFAULTS.userId;
const GUEST = 'U0GUEST001';
const BOT = SLACK_DEFAULTS.botUserId;
const SHARED = SLACK_DEFAULTS.channelId;
const PRIVATE = 'G0PRIV';
const OTHER_DM = 'D0OTHERDM';
const OWN_DM = 'D0OWNDM';

const channels = {
  [SHARED]: { members: [MEMBER, GUEST, BOT] },
  [PRIVATE]: { is_private: true, members: ['U0SOMEONE', BOT] },
  [OTHER_DM]: { is_im: true, members: ['U0SOMEONE', BOT] },
  [OWN_DM]: { is_im: true, members: [MEMBER, BOT] },
  C0NOAPP: { members: [MEMBER, GUEST] },
};

async function answerOf(running: RunningApp, sent: Sent): Promise<string> {
  if (sent.ack?.blocks !== undefined || sent.ack?.text !== undefined) return textOf(sent.ack);
  const [first] = await running.slack.waitForResponses(sent.responseUrl, 1, 10_000);
  const text = textOf(first?.body ?? {});
  if (!/^Looking up/.test(text)) return text;
  const [, answer] = await running.slack.waitForResponses(sent.responseUrl, 2, 10_000);
  return textOf(answer?.body ?? {});
}

const postsIn = (running: RunningApp, channel: string) =>
  running.slack.calls('chat.postMessage').filter((c) => c.args.channel === channel);

/** A sandbox item with branches, its stock moved to `available` company-wide. */
function itemAt(running: RunningApp, available: number, skip = 0): string {
  const item = running.sandbox.data.items.filter((i) => i.record.branches.length > 0)[skip];
  if (!item) throw new Error('sandbox has no item with branches');
  moveSandboxStock(running.sandbox.data, item.record.code, { available });
  return item.record.code;
}

/** Waits for an outcome (eventually's poll), not for a duration. */
const until = (done: () => boolean) => eventually(() => expect(done()).toBe(true));

/** The Watch… modal submitted for `code` into `conversation`, by the payload builders' user. */
async function submitWatchModal(running: RunningApp, code: string, conversation: string) {
  const values = {
    [WATCH_MODAL.directionBlock]: {
      [WATCH_MODAL.directionAction]: {
        type: 'radio_buttons',
        selected_option: { text: { type: 'plain_text', text: 'falls below' }, value: 'below' },
      },
    },
    [WATCH_MODAL.thresholdBlock]: {
      [WATCH_MODAL.thresholdAction]: { type: 'number_input', value: '5' },
    },
    [WATCH_MODAL.channelBlock]: {
      [WATCH_MODAL.channelAction]: {
        type: 'conversations_select',
        selected_conversation: conversation,
      },
    },
  };
  const reply = await postToSlackApp(
    running.eventsUrl,
    interactionForm(
      viewSubmissionPayload({
        view: {
          id: 'V0WATCH34',
          callback_id: WATCH_MODAL.callbackId,
          private_metadata: JSON.stringify({ v: 1, t: 'wo', c: code }),
        },
        values,
      }),
    ),
    { signingSecret: SIGNING_SECRET },
  );
  expect(reply.status).toBe(200);
}

/** The direct messages the app sent `user` (chat.postMessage to the user's id). */
const dmsTo = (running: RunningApp, user: string) =>
  postsIn(running, user).map((c) => textOf(c.args));

describe('watches and shares only where you belong', () => {
  let running: RunningApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'watches-belong-'));
    running = await startApp({
      env: {
        DATA_DIR: dataDir,
        WATCH_MIN_INTERVAL_SECONDS: '1',
        WATCH_SHARE: '0.9',
        WATCH_MAX_PER_USER: '4',
      },
      slack: { channels, users: { [GUEST]: { is_restricted: true } } },
      logLevel: 'info',
    });
  });
  afterAll(async () => {
    await running?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the Watch… modal into a private channel the user is not in posts nothing there, and says why', async () => {
    const code = itemAt(running, 50);
    const before = dmsTo(running, MEMBER).length;
    await submitWatchModal(running, code, PRIVATE);
    await until(() => dmsTo(running, MEMBER).length > before);
    expect(dmsTo(running, MEMBER).at(-1)).toContain('not a member of that conversation');
    expect(postsIn(running, PRIVATE)).toHaveLength(0);
  });

  it('into another person’s direct messages with the app: refused, nothing posted there', async () => {
    const code = itemAt(running, 50);
    const before = dmsTo(running, MEMBER).length;
    await submitWatchModal(running, code, OTHER_DM);
    await until(() => dmsTo(running, MEMBER).length > before);
    expect(dmsTo(running, MEMBER).at(-1)).toContain('not a member of that conversation');
    expect(postsIn(running, OTHER_DM)).toHaveLength(0);
  });

  it('into a channel the app is not in: refused with the fix', async () => {
    const code = itemAt(running, 50);
    const before = dmsTo(running, MEMBER).length;
    await submitWatchModal(running, code, 'C0NOAPP');
    await until(() => dmsTo(running, MEMBER).length > before);
    expect(dmsTo(running, MEMBER).at(-1)).toContain('/invite');
    expect(postsIn(running, 'C0NOAPP')).toHaveLength(0);
  });

  it('a member of the channel sets a watch through the modal, and in their own DM with the app', async () => {
    const code = itemAt(running, 50);
    await submitWatchModal(running, code, SHARED);
    await until(() => postsIn(running, SHARED).some((c) => textOf(c.args).includes('set a watch')));
    await submitWatchModal(running, itemAt(running, 50, 1), OWN_DM);
    await until(() => postsIn(running, OWN_DM).length > 0);
  });

  it('a guest’s watch on the same item, branch and channel does not take over the member’s', async () => {
    const code = itemAt(running, 50, 2);
    const mine = await running.command('/stock', `watch ${code} below 20`);
    expect(await answerOf(running, mine)).toContain(`Watch set on ${code}`);
    const theirs = await running.command('/stock', `watch ${code} below 1`, { user_id: GUEST });
    const refusal = await answerOf(running, theirs);
    expect(refusal).toContain('already watches this item here');
    expect(refusal).toContain(MEMBER);
    const { watches } = await running.services.watches.service.listMine(MEMBER);
    const kept = watches.find((w) => w.code === code && w.channelId === SHARED);
    expect(kept).toMatchObject({ creatorId: MEMBER, threshold: 20 });
    // The member may still move their own, once they say so: they are asked first.
    const moved = await running.command('/stock', `watch ${code} below 15`);
    expect(await answerOf(running, moved)).toContain('replace it with *below 15*?');
  });

  it('a person at their quota is told why; another person still sets theirs', async () => {
    // WATCH_MAX_PER_USER=4, the member's DM included: one more each time until refused.
    let answer = '';
    for (let skip = 3; skip < 8 && !answer.includes('No watch made'); skip += 1) {
      const sent = await running.command('/stock', `watch ${itemAt(running, 50, skip)} below 5`);
      answer = await answerOf(running, sent);
    }
    expect(answer).toContain('you already keep 4 watches');
    const code = itemAt(running, 50, 9);
    const guests = await running.command('/stock', `watch ${code} below 5`, { user_id: GUEST });
    expect(await answerOf(running, guests)).toContain(`Watch set on ${code}`);
  });
});

describe('a tightened access list', () => {
  it('stops alerts, with one message to the creator', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'watches-tightened-'));
    const env = { DATA_DIR: dataDir, WATCH_MIN_INTERVAL_SECONDS: '1', WATCH_SHARE: '0.9' };
    let running = await startApp({ env, logLevel: 'info' });
    try {
      const code = itemAt(running, 50);
      const set = await running.command('/stock', `watch ${code} below 10`);
      expect(await answerOf(running, set)).toContain(`Watch set on ${code}`);
      await running.stop();
      // Restarted with the lists tightened: the creator is no longer on them.
      running = await startApp({
        env: { ...env, STOCK_ALLOWED_USERS: 'U0SOMEONE' },
        logLevel: 'info',
        // Its clock stands past the 1 s check interval: the watch is due at the first tick.
        now: () => new Date(Date.now() + 1_100),
      });
      // Opens the store (a tick before any use of watches does nothing).
      await running.services.watches.service.listMine(MEMBER);
      moveSandboxStock(running.sandbox.data, code, { available: 2 });
      await running.services.watches.checker.tick();
      await running.services.watches.checker.tick();
      const alerts = postsIn(running, SLACK_DEFAULTS.channelId).filter((c) =>
        textOf(c.args).includes(code),
      );
      expect(alerts).toHaveLength(0);
      const told = dmsTo(running, MEMBER).filter((text) => text.includes('switched off'));
      expect(told).toHaveLength(1);
      expect(told[0]).toContain('access lists');
      const { watches } = await running.services.watches.service.listMine(MEMBER);
      expect(watches.find((w) => w.code === code)).toMatchObject({ state: 'off' });
    } finally {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
