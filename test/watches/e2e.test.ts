/**
 * Watches from outside: the whole app (composition root, Bolt's real HTTP receiver, signed
 * requests), the sandbox ERP over real HTTP and the fake Slack, on the embedded store and on
 * PostgreSQL. A check is one `checker.tick()` (the app's own timer is not started here).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { moveSandboxStock } from '../../src/sandbox/index.js';
import { WATCH_ACTION } from '../../src/views/watchButtons.js';
import { WATCH_MODAL } from '../../src/views/watchModal.js';
import { type RunningApp, type Sent, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonLabelled, textOf } from '../helpers/blocks.js';
import { movableClock } from '../helpers/clock.js';
import { eventually } from '../helpers/eventually.js';
import { interactionForm, postToSlackApp } from '../helpers/slack/index.js';
import { SLACK_DEFAULTS } from '../helpers/slack/payloads.js';
import { eventEnvelope, viewSubmissionPayload } from '../helpers/slack/searchPayloads.js';
import { scratchDatabase } from './stores.js';

const CHANNEL = SLACK_DEFAULTS.channelId;

/** The answer, past a "working on it" line a loaded machine may send first. */
async function answerOf(running: RunningApp, sent: Sent): Promise<string> {
  if (sent.ack?.blocks !== undefined || sent.ack?.text !== undefined) return textOf(sent.ack);
  const [first] = await running.slack.waitForResponses(sent.responseUrl, 1, 10_000);
  const text = textOf(first?.body ?? {});
  if (!/^Looking up/.test(text)) return text;
  const [, answer] = await running.slack.waitForResponses(sent.responseUrl, 2, 10_000);
  return textOf(answer?.body ?? {});
}

/** The same, as the message body (for its buttons). */
async function answerBodyOf(running: RunningApp, sent: Sent): Promise<Record<string, unknown>> {
  if (sent.ack?.blocks !== undefined || sent.ack?.text !== undefined) return sent.ack;
  const [first] = await running.slack.waitForResponses(sent.responseUrl, 1, 10_000);
  if (!/^Looking up/.test(textOf(first?.body ?? {}))) return first?.body ?? {};
  const [, answer] = await running.slack.waitForResponses(sent.responseUrl, 2, 10_000);
  return answer?.body ?? {};
}

function posts(running: RunningApp, channel: string) {
  return running.slack.calls('chat.postMessage').filter((c) => c.args.channel === channel);
}

/** A watched code with stock at some branch, moved to `available` company-wide first. */
function watchedCode(running: RunningApp, available: number): string {
  const item = running.sandbox.data.items.find((i) => i.record.branches.length > 0);
  if (!item) throw new Error('sandbox has no item with branches');
  expect(moveSandboxStock(running.sandbox.data, item.record.code, { available })).toMatchObject({
    ok: true,
  });
  return item.record.code;
}

async function waitForPosts(running: RunningApp, channel: string, count: number) {
  await until(async () => posts(running, channel).length >= count);
  return posts(running, channel);
}

/** Waits for an outcome (eventually's poll), not for a duration. */
const until = (done: () => Promise<boolean>) =>
  eventually(async () => expect(await done()).toBe(true));

/**
 * Moves the app's clock past the check interval (from the budget, WATCH_MIN_INTERVAL_SECONDS
 * 1 s) so the next tick finds the item due.
 */
async function pastInterval(
  running: RunningApp,
  clock: ReturnType<typeof movableClock>,
): Promise<void> {
  const seconds = await running.services.watches.service.intervalSeconds();
  clock.advance(seconds * 1000 + 100);
}

function suite(
  name: string,
  store: () => Promise<{ env: Record<string, string>; drop(): Promise<void> }>,
) {
  describe(`watches end to end (${name})`, () => {
    let running: RunningApp;
    let drop: () => Promise<void>;
    const clock = movableClock();

    beforeAll(async () => {
      const made = await store();
      drop = made.drop;
      running = await startApp({
        env: { ...made.env, WATCH_MIN_INTERVAL_SECONDS: '1', WATCH_SHARE: '0.9' },
        logLevel: 'info',
        now: clock.now,
      });
    });
    afterEach(() => running.slack.setFailure('chat.postMessage', undefined));
    afterAll(async () => {
      await running?.stop();
      await drop?.();
    });

    it('a channel the app is not in: no watch, and private advice', async () => {
      const code = watchedCode(running, 50);
      running.slack.setFailure('chat.postMessage', 'not_in_channel');
      const sent = await running.command('/stock', `watch ${code} below 10`, {
        channel_id: 'C0NOTIN01',
      });
      expect(await answerOf(running, sent)).toContain('/invite');
      running.slack.setFailure('chat.postMessage', undefined);
      const list = await running.command('/stock', 'watches', { channel_id: 'C0NOTIN01' });
      expect(await answerOf(running, list)).toContain('No watches in this channel');
    });

    it('create, alert on crossing, update in place, list, snooze, remove, unwatch', async () => {
      const code = watchedCode(running, 50);
      const sent = await running.command('/stock', `watch ${code} below 10`);
      expect(await answerOf(running, sent)).toContain(`Watch set on ${code}`);
      const confirmation = posts(running, CHANNEL).at(-1);
      expect(textOf(confirmation?.args ?? {})).toContain('set a watch');

      moveSandboxStock(running.sandbox.data, code, { available: 4 });
      await pastInterval(running, clock);
      expect(await running.services.watches.checker.tick()).toMatchObject({
        held: true,
        checked: 1,
      });
      const alert = posts(running, CHANNEL).at(-1);
      const alertText = textOf(alert?.args ?? {});
      expect(alertText).toContain('Available:* 4');
      expect(alertText).not.toMatch(/cost/i);

      // A later change while past: the same message, updated in place.
      moveSandboxStock(running.sandbox.data, code, { available: 2 });
      const postsBefore = posts(running, CHANNEL).length;
      await pastInterval(running, clock);
      await running.services.watches.checker.tick();
      expect(posts(running, CHANNEL)).toHaveLength(postsBefore);
      const update = running.slack.calls('chat.update').at(-1);
      expect(update?.args.ts).toBe(alert?.reply.ts);
      expect(textOf(update?.args ?? {})).toContain('Available:* 2');

      const list = await running.command('/stock', 'watches');
      const listed =
        list.ack ?? (await running.slack.waitForResponses(list.responseUrl, 1))[0]?.body;
      expect(textOf(listed ?? {})).toContain(code);
      const buttonOf = (actionId: string) => {
        const block = (
          (listed?.blocks ?? []) as Array<{
            elements?: Array<{ action_id?: string; value?: string }>;
          }>
        )
          .flatMap((b) => b.elements ?? [])
          .find((e) => e.action_id?.startsWith(actionId));
        if (!block?.action_id || !block.value) throw new Error(`no ${actionId} button`);
        return { id: block.action_id, value: block.value };
      };
      const snoozeButton = buttonOf('watch_snooze');
      const snoozed = await running.click(snoozeButton.id, snoozeButton.value);
      const [snoozeReply] = await running.slack.waitForResponses(snoozed.responseUrl, 1, 5_000);
      expect(textOf(snoozeReply?.body ?? {})).toContain('snoozed until');

      const removeButton = buttonOf('watch_remove');
      const removed = await running.click(removeButton.id, removeButton.value);
      const [removeReply] = await running.slack.waitForResponses(removed.responseUrl, 1, 5_000);
      expect(textOf(removeReply?.body ?? {})).toContain(`Removed the watch on ${code}`);
      const again = await running.click(removeButton.id, removeButton.value);
      const [againReply] = await running.slack.waitForResponses(again.responseUrl, 1, 5_000);
      expect(textOf(againReply?.body ?? {})).toContain('no longer exists');

      await running.command('/stock', `watch ${code} above 100`);
      const unwatched = await running.command('/stock', `unwatch ${code}`);
      expect(await answerOf(running, unwatched)).toContain(`Removed the watch on ${code}`);
    });

    it('a permanent Slack error switches the watch off with one direct message to its creator', async () => {
      const code = watchedCode(running, 50);
      await running.command('/stock', `watch ${code} below 10`, { channel_id: 'C0GONE0001' });
      moveSandboxStock(running.sandbox.data, code, { available: 3 });
      await pastInterval(running, clock);
      await running.services.watches.checker.tick();
      expect(posts(running, 'C0GONE0001')).toHaveLength(2); // confirmation, alert
      running.slack.setFailure('chat.update', 'channel_not_found');
      moveSandboxStock(running.sandbox.data, code, { available: 1 });
      await pastInterval(running, clock);
      await running.services.watches.checker.tick();
      await pastInterval(running, clock);
      moveSandboxStock(running.sandbox.data, code, { available: 0 });
      await running.services.watches.checker.tick();
      running.slack.setFailure('chat.update', undefined);
      const dms = posts(running, SLACK_DEFAULTS.userId).filter((c) =>
        textOf(c.args).includes('is switched off'),
      );
      expect(dms).toHaveLength(1);
      const list = await running.command('/stock', 'watches', { channel_id: 'C0GONE0001' });
      expect(await answerOf(running, list)).toContain('off:');
      expect(running.sandbox.stats().rateLimited).toBe(0);
    });

    it('Watch… on an item card: the modal, then its submission makes the watch in the channel chosen', async () => {
      const code = watchedCode(running, 50);
      const channel = 'C0MODAL001';
      const card = await running.command('/stock', code, { channel_id: channel });
      const watchButton = buttonLabelled(card.ack ?? {}, 'Watch…');
      if (watchButton.value === undefined) throw new Error('Watch… carries no value');
      expect(watchButton.action_id).toBe(WATCH_ACTION.open);
      expect(JSON.parse(watchButton.value)).toMatchObject({ c: code, ch: channel });

      const opensBefore = running.slack.calls('views.open').length;
      await running.click(watchButton.action_id, watchButton.value, { channelId: channel });
      const [opened] = (
        await running.slack.waitForCalls('views.open', opensBefore + 1, 5_000)
      ).slice(-1);
      const view = opened?.args.view as {
        callback_id: string;
        private_metadata: string;
        blocks: Array<{ block_id?: string; element?: Record<string, unknown> }>;
      };
      expect(view.callback_id).toBe(WATCH_MODAL.callbackId);
      const channelInput = view.blocks.find((b) => b.block_id === WATCH_MODAL.channelBlock);
      expect(channelInput?.element).toMatchObject({ initial_conversation: channel });
      const branchInput = view.blocks.find((b) => b.block_id === WATCH_MODAL.branchBlock);
      const branchOptions = (branchInput?.element?.options ?? []) as Array<{ value: string }>;
      const branch = branchOptions[0]?.value;
      if (branch === undefined) throw new Error('the modal offers no branch');

      const submit = (values: Record<string, unknown>) =>
        postToSlackApp(
          running.eventsUrl,
          interactionForm(
            viewSubmissionPayload({
              view: {
                id: 'V0WATCH01',
                callback_id: view.callback_id,
                private_metadata: view.private_metadata,
              },
              values,
            }),
          ),
          { signingSecret: SIGNING_SECRET },
        );
      const values = (threshold: string) => ({
        [WATCH_MODAL.directionBlock]: {
          [WATCH_MODAL.directionAction]: {
            type: 'radio_buttons',
            selected_option: { text: { type: 'plain_text', text: 'falls below' }, value: 'below' },
          },
        },
        [WATCH_MODAL.thresholdBlock]: {
          [WATCH_MODAL.thresholdAction]: { type: 'number_input', value: threshold },
        },
        [WATCH_MODAL.branchBlock]: {
          [WATCH_MODAL.branchAction]: {
            type: 'static_select',
            selected_option: { text: { type: 'plain_text', text: branch }, value: branch },
          },
        },
        [WATCH_MODAL.channelBlock]: {
          [WATCH_MODAL.channelAction]: {
            type: 'conversations_select',
            selected_conversation: channel,
          },
        },
      });

      // A threshold that is not a number stays on the form, with nothing made.
      const bad = await submit(values('lots'));
      expect(bad.json).toMatchObject({ response_action: 'errors' });
      expect(Object.keys((bad.json as { errors: object }).errors)).toEqual([
        WATCH_MODAL.thresholdBlock,
      ]);
      expect(posts(running, channel)).toHaveLength(0);

      const dmsBefore = posts(running, SLACK_DEFAULTS.userId).length;
      const good = await submit(values('10'));
      expect(good.status).toBe(200);
      const [confirmation] = await waitForPosts(running, channel, 1);
      expect(textOf(confirmation?.args ?? {})).toContain(code);
      await until(async () =>
        posts(running, SLACK_DEFAULTS.userId)
          .slice(dmsBefore)
          .some((c) => textOf(c.args).includes(`Watch set on ${code}`)),
      );
      const { watches } = await running.services.watches.service.listChannel(channel);
      expect(watches).toMatchObject([
        { code, branchName: branch, direction: 'below', threshold: 10, state: 'armed' },
      ]);

      // The same item, branch and direction again: asked in the direct message, nothing
      // changed until Replace, pressed there, replaces it in the channel chosen.
      const asksBefore = posts(running, SLACK_DEFAULTS.userId).length;
      await submit(values('20'));
      await until(async () =>
        posts(running, SLACK_DEFAULTS.userId)
          .slice(asksBefore)
          .some((c) => textOf(c.args).includes('You already watch')),
      );
      const ask = posts(running, SLACK_DEFAULTS.userId).at(-1);
      expect(textOf(ask?.args ?? {})).toContain('replace it with *below 20*?');
      const thresholds = async () =>
        (await running.services.watches.service.listChannel(channel)).watches.map(
          (w) => w.threshold,
        );
      expect(await thresholds()).toEqual([10]);
      const replace = buttonLabelled(ask?.args ?? {}, 'Replace');
      const pressed = await running.click(replace.action_id, replace.value ?? '', {
        channelId: 'D0DIRECT01',
        isEphemeral: false,
      });
      const [made] = await running.slack.waitForResponses(pressed.responseUrl, 1, 5_000);
      expect(textOf(made?.body ?? {})).toContain(`Watch set on ${code}`);
      expect(await thresholds()).toEqual([20]);
    });

    it('a second watch on the same item and place asks first: Cancel keeps the first, Replace replaces it', async () => {
      const code = watchedCode(running, 50);
      const channel = 'C0REPLACE1';
      const first = await running.command('/stock', `watch ${code} below 5`, {
        channel_id: channel,
      });
      expect(await answerOf(running, first)).toContain(`Watch set on ${code}`);
      const second = await running.command('/stock', `watch ${code} below 10`, {
        channel_id: channel,
      });
      const asked = await answerBodyOf(running, second);
      expect(textOf(asked ?? {})).toContain(
        `You already watch \`${code}\` company-wide *below 5* in <#${channel}>: replace it with *below 10*?`,
      );
      const thresholds = async () =>
        (await running.services.watches.service.listChannel(channel)).watches.map(
          (w) => w.threshold,
        );
      expect(await thresholds()).toEqual([5]);
      expect(posts(running, channel)).toHaveLength(1);

      const cancel = buttonLabelled(asked ?? {}, 'Cancel');
      const kept = await running.click(cancel.action_id, cancel.value ?? '', {
        channelId: channel,
      });
      const [keptReply] = await running.slack.waitForResponses(kept.responseUrl, 1, 5_000);
      expect(keptReply?.body).toMatchObject({ replace_original: true });
      expect(textOf(keptReply?.body ?? {})).toContain('Nothing changed');
      expect(await thresholds()).toEqual([5]);

      const replace = buttonLabelled(asked ?? {}, 'Replace');
      const pressed = await running.click(replace.action_id, replace.value ?? '', {
        channelId: channel,
      });
      const [made] = await running.slack.waitForResponses(pressed.responseUrl, 1, 5_000);
      expect(textOf(made?.body ?? {})).toContain(`Watch set on ${code}`);
      expect(await thresholds()).toEqual([10]);
      expect(textOf(posts(running, channel).at(-1)?.args ?? {})).toContain('*below 10*');
    });

    it("a signed channel_archive event switches that channel's watches off and DMs each creator once", async () => {
      const code = watchedCode(running, 50);
      const channel = 'C0ARCHIVE1';
      const other = 'UOTHER0001';
      await running.command('/stock', `watch ${code} below 10`, { channel_id: channel });
      await running.command('/stock', `watch ${code} above 100`, { channel_id: channel });
      const otherCode = running.sandbox.data.items.find(
        (i) => i.record.branches.length > 0 && i.record.code !== code,
      )?.record.code;
      if (otherCode === undefined) throw new Error('sandbox has one item with branches');
      await running.command('/stock', `watch ${otherCode} below 5`, {
        channel_id: channel,
        user_id: other,
      });
      await running.command('/stock', `watch ${code} below 10`, { channel_id: 'C0ELSEWHR1' });
      const dmsTo = (user: string) =>
        posts(running, user).filter((c) => textOf(c.args).includes('switched off'));
      const before = { mine: dmsTo(SLACK_DEFAULTS.userId).length, theirs: dmsTo(other).length };

      const archive = () =>
        postToSlackApp(
          running.eventsUrl,
          JSON.stringify(eventEnvelope({ type: 'channel_archive', channel, user: other })),
          { signingSecret: SIGNING_SECRET, contentType: 'application/json' },
        );
      expect((await archive()).status).toBe(200);
      await until(async () => {
        const { watches } = await running.services.watches.service.listChannel(channel);
        return watches.length === 3 && watches.every((w) => w.state === 'off');
      });
      const { watches } = await running.services.watches.service.listChannel(channel);
      expect(watches.map((w) => w.offReason)).toEqual([
        'is_archived',
        'is_archived',
        'is_archived',
      ]);
      await until(async () => dmsTo(other).length > before.theirs);
      // Slack may deliver an event twice: the second changes nothing and tells nobody again.
      const switchOff = vi.spyOn(running.services.watches.service, 'switchOff');
      try {
        expect((await archive()).status).toBe(200);
        await eventually(() => expect(switchOff).toHaveBeenCalledTimes(1));
        // Nothing was left to switch off, so its listener stops there and tells nobody.
        expect(await switchOff.mock.results[0]?.value).toEqual([]);
      } finally {
        switchOff.mockRestore();
      }
      // One message per creator, naming each of their watches.
      expect(dmsTo(SLACK_DEFAULTS.userId).length - before.mine).toBe(1);
      const mine = textOf(dmsTo(SLACK_DEFAULTS.userId).at(-1)?.args ?? {});
      expect(mine).toContain('Your 2 watches');
      expect(mine).toContain('archived');
      expect(dmsTo(other).length - before.theirs).toBe(1);
      const elsewhere = await running.services.watches.service.listChannel('C0ELSEWHR1');
      expect(elsewhere.watches.map((w) => w.state)).toEqual(['armed']);
    });
  });
}

suite('embedded SQLite in DATA_DIR', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'watch2-e2e-'));
  return {
    env: { DATA_DIR: dir },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

suite('PostgreSQL', async () => {
  const database = await scratchDatabase('watch2_e2e');
  return { env: { DATABASE_URL: database.url }, drop: database.drop };
});
