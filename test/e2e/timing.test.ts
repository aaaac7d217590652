/**
 * Timing over HTTP with a slow and a failing ERP: acknowledged before the ERP answers; one
 * "working on it" line when the answer is slow; a stale answer while the ERP is down. The
 * app's deadlines are a quarter of the real ones here (the rules themselves, on a fake clock,
 * are test/slack/delivery.unit.test.ts). A slow ERP is one whose answer a proxy holds back until the
 * working line has come: the order is made, not hoped for from a long latency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonLabelled, textOf } from '../helpers/blocks.js';
import { eventually } from '../helpers/eventually.js';
import { finalAnswer } from './helpers/conversation.js';
import { type ErpProxy, startErpProxy } from './helpers/recordingProxy.js';

let run: RunningApp;
const TIMING = { ackWithinMs: 250, workingAfterMs: 500 };

let erp: RunningSandbox;
let proxy: ErpProxy;
beforeAll(async () => {
  erp = await startSandbox({ faults: { latencyMs: 10 } });
  proxy = await startErpProxy(erp.url);
  run = await startApp({
    erp,
    env: { ERP_BASE_URL: proxy.url },
    timing: { ackWithinMs: TIMING.ackWithinMs, workingAfterMs: TIMING.workingAfterMs },
  });
});
afterAll(async () => {
  await run?.stop();
  await proxy?.close();
  await erp?.close();
});

/** How often the ERP has been asked for `code` so far. */
const askedFor = (code: string) =>
  proxy.seen.filter((seen) => seen.target === `/api/getItem/${code}`).length;
/** Waits until the ERP has been asked for `code` `count` times in all. */
const asked = (code: string, count: number) => eventually(() => expect(askedFor(code)).toBe(count));

const stock = (text: string) => run.command('/stock', text);

describe('a slow ERP', () => {
  it('acknowledges before the ERP answers, says it is working, then answers', async () => {
    const before = askedFor('WIDGET-9');
    const answerNow = proxy.hold();
    try {
      const { reply, responseUrl } = await stock('WIDGET-9');
      expect(reply.status).toBe(200);
      // The acknowledgement did not wait for the answer the ERP still holds.
      expect(reply.body).toBe('');
      await asked('WIDGET-9', before + 1);
      // Past the working line's deadline, with the ERP still silent: the working line alone.
      const [working] = await run.slack.waitForResponses(responseUrl, 1, 8000);
      expect(textOf(working?.body ?? {})).toMatch(/WIDGET-9/);
      expect((working?.body.blocks as unknown[] | undefined)?.length ?? 0).toBeLessThanOrEqual(1);
      expect(run.slack.responses(responseUrl)).toHaveLength(1);
      answerNow();
      const [, answer] = await run.slack.waitForResponses(responseUrl, 2, 8000);
      expect(textOf(answer?.body ?? {})).toContain('WIDGET-9');
      buttonLabelled(answer?.body ?? {}, 'Refresh');
    } finally {
      answerNow();
    }
  });

  it('replaces a clicked card with a working line, then with the answer', async () => {
    const { reply } = await stock('WIDGET-9');
    const card = reply.json as { blocks?: unknown[] };
    const refresh = buttonLabelled(card, 'Refresh');
    const before = askedFor('WIDGET-9');
    const answerNow = proxy.hold();
    try {
      const { reply: click, responseUrl } = await run.click(refresh.action_id, refresh.value ?? '');
      expect(click.status).toBe(200);
      await asked('WIDGET-9', before + 1);
      // The ERP still holds its answer: the working line alone has come.
      const [working] = await run.slack.waitForResponses(responseUrl, 1, 8000);
      expect(run.slack.responses(responseUrl)).toHaveLength(1);
      answerNow();
      const [, answer] = await run.slack.waitForResponses(responseUrl, 2, 8000);
      expect(working?.body.replace_original).toBe(true);
      expect(answer?.body.replace_original).toBe(true);
      buttonLabelled(answer?.body ?? {}, 'Refresh');
    } finally {
      answerNow();
    }
  });
});

describe('a failing ERP', () => {
  it('serves the cached card marked stale, else a clear error', async () => {
    const { reply } = await stock('WIDGET-9');
    const refresh = buttonLabelled(reply.json as { blocks?: unknown[] }, 'Refresh');
    run.sandbox.setFaults({ errorRate: 1 });
    try {
      const { responseUrl } = await run.click(refresh.action_id, refresh.value ?? '');
      const last = await finalAnswer(run, responseUrl);
      expect(textOf(last)).toMatch(/stale|unreachable|not answering|couldn.t reach/i);
      expect(textOf(last)).toContain('WIDGET-9');

      const never = await stock('NEVER-CACHED-1');
      const message = await finalAnswer(run, never.responseUrl, never.ack);
      expect(textOf(message)).toMatch(/ERP/);
      expect(textOf(message)).not.toMatch(/500|stack|Error:/);
    } finally {
      run.sandbox.setFaults({ errorRate: 0 });
    }
  });
});

describe('a misconfigured ERP credential', () => {
  it('tells the user to ask an admin, and logs the detail for the admin without the token', async () => {
    const wrong = await startApp({ env: { ERP_ACCESS_TOKEN: 'wrong-erp-token-0123456789' } });
    try {
      const { ack, responseUrl } = await wrong.command('/stock', 'WIDGET-9');
      const message = ack ?? (await wrong.slack.waitForResponses(responseUrl, 1))[0]?.body;
      expect(textOf(message ?? {})).toMatch(/admin/i);
      const errors = wrong.logLines
        .map((line) => JSON.parse(line))
        .filter((l) => l.level === 'error');
      expect(errors.some((l) => JSON.stringify(l).includes('erp_auth'))).toBe(true);
      expect(wrong.logLines.join('\n')).not.toContain('wrong-erp-token-0123456789');
    } finally {
      await wrong.stop();
    }
  });
});
