/**
 * `/stock digest on 08:00 Australia/Perth demand` from outside: the whole app over signed
 * requests, the sandbox ERP and the fake Slack. The channel's digest carries the last seven
 * days' unmet demand, most asked first, and is sent with demand alone (no watch past); a
 * digest without `demand` says nothing of it, and with nothing to say sends nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, type Sent, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { movableClock } from '../helpers/clock.js';

const DEMAND_CHANNEL = 'C0DEMAND01';
const PLAIN_CHANNEL = 'C0PLAINDG1';

async function answerOf(running: RunningApp, sent: Sent): Promise<string> {
  if (sent.ack?.blocks !== undefined || sent.ack?.text !== undefined) return textOf(sent.ack);
  const [first] = await running.slack.waitForResponses(sent.responseUrl, 1, 10_000);
  const text = textOf(first?.body ?? {});
  if (!/^Looking up/.test(text)) return text;
  const [, answer] = await running.slack.waitForResponses(sent.responseUrl, 2, 10_000);
  return textOf(answer?.body ?? {});
}

const digestsIn = (running: RunningApp, channel: string) =>
  running.slack
    .calls('chat.postMessage')
    .filter((c) => c.args.channel === channel && textOf(c.args).includes('Daily digest'));

describe('the daily digest with unmet demand', () => {
  let running: RunningApp;
  const clock = movableClock();
  const dir = mkdtempSync(join(tmpdir(), 'digest-demand-'));

  beforeAll(async () => {
    running = await startApp({ env: { DATA_DIR: dir }, logLevel: 'info', now: clock.now });
  });
  afterAll(async () => {
    await running?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('carries the No answers of the week, most asked first, and is sent for them alone', async () => {
    const on = await running.command('/stock', 'digest on 08:00 Australia/Perth demand', {
      channel_id: DEMAND_CHANNEL,
    });
    expect(await answerOf(running, on)).toContain("the last 7 days' unmet demand");
    const plain = await running.command('/stock', 'digest on 08:00 Australia/Perth', {
      channel_id: PLAIN_CHANNEL,
    });
    expect(await answerOf(running, plain)).not.toContain('unmet demand');
    for (const text of ['WIDGET-9 500 perth', 'WIDGET-9 400 perth', 'WIDGET-9 900']) {
      expect(await answerOf(running, await running.command('/stock', text))).toContain('No');
    }
    expect(await answerOf(running, await running.command('/stock', 'WIDGET-9 1'))).toContain('Yes');

    // Just past the next 08:00 in Perth.
    const setting = await running.services.watches.digests.setting(DEMAND_CHANNEL);
    clock.advance((setting?.nextAt.getTime() ?? 0) - clock.now().getTime() + 5_000);
    await running.services.watches.checker.tick();
    const [digest, ...more] = digestsIn(running, DEMAND_CHANNEL);
    expect(more).toEqual([]);
    const text = textOf(digest?.args ?? {});
    expect(text).toContain('Daily digest: unmet demand');
    expect(text).toContain('*Unmet demand, last 7 days* (most asked first)');
    expect(text).toContain('• `WIDGET-9` at Perth · 2 “No”s\n• `WIDGET-9` company-wide · 1 “No”');
    expect(text).not.toMatch(/U0|cost/i);
    // Without `demand`, and no watch past: nothing to say, nothing sent.
    expect(digestsIn(running, PLAIN_CHANNEL)).toEqual([]);
  });
});
