/**
 * Issue 33 from outside: the whole app (Bolt's real HTTP receiver, signed requests, the
 * sandbox ERP over HTTP, the fake Slack), on the embedded SQLite default and on PostgreSQL
 * with two replicas (the advisory-lock lease). A watch's crossings and returns stay in one
 * thread, once each, across a restart and a change of the checking replica; Snooze and Stop
 * watching from the alert work for another channel member; notify mentions only what Slack
 * escaped; the digest comes once at its minute (the clock is set with vitest's fake Date,
 * never waited for) and not after `off`; no days of cover with a short history.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { moveSandboxStock, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { type RunningApp, type Sent, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';
import { movableClock } from '../helpers/clock.js';
import { postToSlackApp } from '../helpers/slack/index.js';
import { appHomeOpenedEnvelope } from '../helpers/slack/searchPayloads.js';
import { scratchDatabase } from './stores.js';

const MEMBER = 'U0MEMBER02';
const GUEST = 'U0GUEST001';
/** A Slack Connect partner: their own team, not the installing one. */
const PARTNER = { userId: 'U0PARTNER1', userTeamId: 'T0PARTNER1' };

interface Posted {
  channel: string;
  ts: string;
  threadTs: string | undefined;
  broadcast: string;
  text: string;
  fallback: string;
}

async function answerOf(running: RunningApp, sent: Sent): Promise<string> {
  if (sent.ack?.blocks !== undefined || sent.ack?.text !== undefined) return textOf(sent.ack);
  const responses = await running.slack.waitForResponses(sent.responseUrl, 1, 10_000);
  const text = textOf(responses[0]?.body ?? {});
  if (!/^Looking up/.test(text)) return text;
  const [, answer] = await running.slack.waitForResponses(sent.responseUrl, 2, 10_000);
  return textOf(answer?.body ?? {});
}

function suite(
  name: string,
  setup: () => Promise<{ env: Record<string, string>; replicas: 1 | 2; drop(): Promise<void> }>,
) {
  describe(`watch stories end to end (${name})`, () => {
    let erp: RunningSandbox;
    let env: Record<string, string>;
    const replicas: RunningApp[] = [];
    /** Every replica that ran, stopped ones too: their fake Slacks hold what they posted. */
    const ran: RunningApp[] = [];
    let drop: () => Promise<void>;

    /** Every replica's clock: one, as if they ran on one machine. */
    const clock = movableClock();
    const start = async () => {
      const running = await startApp({
        erp,
        env,
        logLevel: 'info',
        now: clock.now,
        // Another full member, and a guest: who may press Stop and Snooze on others' watches.
        slack: { users: { [MEMBER]: {}, [GUEST]: { is_restricted: true } } },
      });
      ran.push(running);
      return running;
    };
    const posts = (channel: string): Posted[] =>
      ran.flatMap((r) =>
        r.slack
          .calls('chat.postMessage')
          .filter((c) => c.args.channel === channel)
          .map((c) => ({
            channel,
            ts: String((c.reply as { ts?: unknown }).ts),
            threadTs: typeof c.args.thread_ts === 'string' ? c.args.thread_ts : undefined,
            broadcast: String(c.args.reply_broadcast),
            text: textOf(c.args),
            fallback: String(c.args.text ?? ''),
          })),
      );
    const updates = () => ran.flatMap((r) => r.slack.calls('chat.update'));
    const tickAll = async () => {
      for (const replica of replicas) await replica.services.watches.checker.tick();
    };
    const pastInterval = async () => {
      const first = replicas[0];
      const seconds = first ? await first.services.watches.service.intervalSeconds() : 1;
      clock.advance(seconds * 1000 + 100);
    };
    const first = () => {
      const replica = replicas[0];
      if (!replica) throw new Error('no replica');
      return replica;
    };
    const watchedCode = (index: number, available: number): string => {
      const item = erp.data.items.filter((i) => i.record.branches.length > 0)[index];
      if (!item) throw new Error('sandbox has too few items with branches');
      moveSandboxStock(erp.data, item.record.code, { available });
      return item.record.code;
    };

    beforeAll(async () => {
      const made = await setup();
      drop = made.drop;
      env = { ...made.env, WATCH_MIN_INTERVAL_SECONDS: '1', WATCH_SHARE: '0.9' };
      erp = await startSandbox();
      for (let i = 0; i < made.replicas; i += 1) replicas.push(await start());
    });
    afterEach(() => {
      vi.useRealTimers();
    });
    afterAll(async () => {
      for (const replica of replicas) await replica.stop();
      await erp?.close();
      await drop?.();
    });

    it('crossings and returns stay in one thread, once each, across a restart and a change of checking replica; notify mentions only what Slack escaped', async () => {
      const channel = 'C0THREAD01';
      const code = watchedCode(0, 50);
      const refused = await first().command(
        '/stock',
        `watch ${code} below 10 notify <@U0PURCH01> <!here>`,
        { channel_id: channel },
      );
      expect(await answerOf(first(), refused)).toContain('never mentions the whole channel');
      const freeText = await first().command('/stock', `watch ${code} below 10 notify @buyers`, {
        channel_id: channel,
      });
      expect(await answerOf(first(), freeText)).toContain('is not a person or a user group');
      expect(posts(channel)).toHaveLength(0);

      const made = await first().command(
        '/stock',
        `watch ${code} below 10 notify <@U0PURCH01|jo> <!subteam^S0GROUP01|@buyers>`,
        { channel_id: channel },
      );
      expect(await answerOf(first(), made)).toContain(`Watch set on ${code}`);

      moveSandboxStock(erp.data, code, { available: 4 });
      await pastInterval();
      await tickAll();
      const roots = () => posts(channel).filter((p) => p.threadTs === undefined);
      expect(roots()).toHaveLength(2); // the confirmation, the alert
      const root = roots()[1];
      if (!root) throw new Error('no alert');
      expect(root.fallback).toMatch(/^<@U0PURCH01> <!subteam\^S0GROUP01> /);
      expect(root.text).not.toContain('<!here>');
      expect(root.text).not.toContain('days of cover');
      const replies = () => posts(channel).filter((p) => p.threadTs !== undefined);

      moveSandboxStock(erp.data, code, { available: 30 });
      await pastInterval();
      await tickAll();
      await tickAll();
      expect(replies().map((r) => [r.threadTs, r.broadcast])).toEqual([[root.ts, 'false']]);
      expect(replies()[0]?.text).toContain('Back to 10 or more: 30 available');
      expect(textOf(updates().at(-1)?.args ?? {})).toContain(
        `${code} company-wide is back to 10 or more`,
      );

      // A restart of the first replica (on PostgreSQL the other one may take over the checks).
      const stopped = replicas.shift();
      await stopped?.stop();
      replicas.push(await start());
      moveSandboxStock(erp.data, code, { available: 3 });
      await pastInterval();
      await tickAll();
      await tickAll();
      expect(roots()).toHaveLength(2);
      expect(replies().map((r) => r.threadTs)).toEqual([root.ts, root.ts]);
      expect(replies()[1]?.fallback).toMatch(/^<@U0PURCH01> <!subteam\^S0GROUP01> /);
      expect(replies()[1]?.text).toContain('Below 10 again: 3 available (was 30)');
      expect(erp.stats().rateLimited).toBe(0);

      // App Home: the watch with where it stands; no days of cover on a few seconds of history.
      const homes = () => ran.flatMap((r) => r.slack.calls('views.publish'));
      const before = homes().length;
      await postToSlackApp(first().eventsUrl, JSON.stringify(appHomeOpenedEnvelope()), {
        signingSecret: SIGNING_SECRET,
        contentType: 'application/json',
      });
      await vi.waitUntil(() => homes().length > before, { timeout: 10_000, interval: 25 });
      const home = JSON.stringify(homes().at(-1)?.args.view ?? {});
      expect(home).toContain(code);
      expect(home).toContain('past the threshold now');
      expect(home).toContain('3 available');
      expect(home).not.toContain('days of cover');
    });

    it('Snooze and Stop watching pressed on the alert by another channel member', async () => {
      const channel = 'C0PRESS001';
      const code = watchedCode(1, 50);
      await first().command('/stock', `watch ${code} below 10`, { channel_id: channel });
      moveSandboxStock(erp.data, code, { available: 2 });
      await pastInterval();
      await tickAll();
      const alertCall = ran
        .flatMap((r) => r.slack.calls('chat.postMessage'))
        .filter((c) => c.args.channel === channel)
        .at(-1);
      if (alertCall === undefined) throw new Error('no alert');
      const alert = { blocks: alertCall.args.blocks };
      const root = String((alertCall.reply as { ts?: unknown }).ts);
      const button = (prefix: string) => {
        const found = buttonsOf(alert).find((b) => b.action_id.startsWith(prefix));
        if (!found?.value) throw new Error(`no ${prefix} button on the alert`);
        return found;
      };
      const press = (
        b: { action_id: string; value: string | undefined },
        who: { userId: string; userTeamId?: string } = { userId: MEMBER },
      ) =>
        first().click(b.action_id, b.value ?? '', {
          ...who,
          channelId: channel,
          isEphemeral: false,
          messageTs: root,
        });

      // A guest and a Slack Connect partner see the buttons but may not press them on a
      // member's watch: told so privately, nothing changes, nothing is said in the thread.
      for (const who of [{ userId: GUEST }, PARTNER]) {
        for (const prefix of ['watch_snooze', 'watch_stop']) {
          const refused = await press(button(prefix), who);
          const [reply] = await first().slack.waitForResponses(refused.responseUrl, 1, 10_000);
          expect(textOf(reply?.body ?? {})).toContain('Nothing changed: only the person who set');
        }
      }
      const still = await first().services.watches.service.listChannel(channel);
      expect(still.watches.map((w) => w.snoozedUntil)).toEqual([undefined]);
      expect(posts(channel).filter((p) => p.threadTs === root)).toHaveLength(0);

      const snooze = await press(button('watch_snooze'));
      const [snoozeReply] = await first().slack.waitForResponses(snooze.responseUrl, 1, 10_000);
      expect(textOf(snoozeReply?.body ?? {})).toContain('snoozed until <!date^');
      await vi.waitUntil(
        () =>
          posts(channel).some(
            (p) => p.threadTs === root && p.text.includes(`<@${MEMBER}> snoozed`),
          ),
        { timeout: 10_000, interval: 25 },
      );
      const stop = button('watch_stop');
      expect(stop.confirm?.confirm?.text).toBe('Stop watching');
      const stopped = await press(stop);
      const [stopReply] = await first().slack.waitForResponses(stopped.responseUrl, 1, 10_000);
      expect(textOf(stopReply?.body ?? {})).toContain(`Removed the watch on ${code}`);
      expect(
        posts(channel).some(
          (p) => p.threadTs === root && p.text.includes(`<@${MEMBER}> stopped this watch`),
        ),
      ).toBe(true);
      expect(textOf(updates().at(-1)?.args ?? {})).toContain(`Stopped by <@${MEMBER}>`);
      const { watches } = await first().services.watches.service.listChannel(channel);
      expect(watches).toHaveLength(0);
      expect(first().logLines.some((l) => l.includes('"press":"wx"') && l.includes(MEMBER))).toBe(
        true,
      );
    });

    it('the digest arrives once at its minute, and not after off', async () => {
      const channel = 'C0DIGEST01';
      const code = watchedCode(2, 5);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.UTC(2026, 10, 27, 7, 58));
      await first().command('/stock', `watch ${code} below 10`, { channel_id: channel });
      const on = await first().command('/stock', 'digest on 08:00', { channel_id: channel });
      expect(await answerOf(first(), on)).toContain('Daily digest on: every day at 08:00 UTC');
      const digests = () => posts(channel).filter((p) => p.text.includes('Daily digest'));

      vi.setSystemTime(Date.UTC(2026, 10, 27, 7, 59, 50));
      await tickAll();
      expect(digests()).toHaveLength(0);
      vi.setSystemTime(Date.UTC(2026, 10, 27, 8, 0, 5));
      await tickAll();
      await tickAll();
      expect(digests()).toHaveLength(1);
      expect(digests()[0]?.text).toContain(`\`${code}\` company-wide: *5* available, below 10`);

      const off = await first().command('/stock', 'digest off', { channel_id: channel });
      expect(await answerOf(first(), off)).toContain('Daily digest off');
      vi.setSystemTime(Date.UTC(2026, 10, 28, 8, 0, 5));
      await tickAll();
      expect(digests()).toHaveLength(1);
    });
  });
}

suite('embedded SQLite in DATA_DIR', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'watch33-e2e-'));
  return {
    env: { DATA_DIR: dir },
    replicas: 1,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

suite('PostgreSQL, two replicas', async () => {
  const database = await scratchDatabase('watch33_e2e');
  return { env: { DATABASE_URL: database.url }, replicas: 2, drop: database.drop };
});
