/**
 * Timing over HTTP with a slow and a failing ERP: acknowledged before the ERP answers; one
 * "working on it" line when the answer is slow; a stale answer while the ERP is down. The
 * app's deadlines are a quarter of the real ones here (the rules themselves, on a fake clock,
 * are test/slack/delivery.test.ts), so a slow ERP costs the test 1.5 s, not 2.6.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonLabelled, textOf } from '../helpers/blocks.js';
import { finalAnswer } from './helpers/conversation.js';

let run: RunningApp;
const TIMING = { ackWithinMs: 250, workingAfterMs: 500 };
/** Well past the working line's deadline: the answer comes after it. */
const SLOW_ERP_MS = 1500;

beforeAll(async () => {
  run = await startApp({
    sandbox: { faults: { latencyMs: 10 } },
    timing: { ackWithinMs: TIMING.ackWithinMs, workingAfterMs: TIMING.workingAfterMs },
  });
});
afterAll(async () => {
  await run?.stop();
});

const stock = (text: string) => run.command('/stock', text);

describe('a slow ERP', () => {
  it('acknowledges before the ERP answers, says it is working, then answers', async () => {
    run.sandbox.setFaults({ latencyMs: SLOW_ERP_MS, jitterMs: 0 });
    try {
      const { reply, responseUrl } = await stock('WIDGET-9');
      expect(reply.status).toBe(200);
      expect(reply.body).toBe('');
      // The acknowledgement did not wait for the answer: at most the working line came yet.
      expect(run.slack.responses(responseUrl).length).toBeLessThanOrEqual(1);
      const [working, answer] = await run.slack.waitForResponses(responseUrl, 2, 8000);
      expect(textOf(working?.body ?? {})).toMatch(/WIDGET-9/);
      expect((working?.body.blocks as unknown[] | undefined)?.length ?? 0).toBeLessThanOrEqual(1);
      expect(textOf(answer?.body ?? {})).toContain('WIDGET-9');
      buttonLabelled(answer?.body ?? {}, 'Refresh');
    } finally {
      run.sandbox.setFaults({ latencyMs: 10 });
    }
  });

  it('replaces a clicked card with a working line, then with the answer', async () => {
    const { reply } = await stock('WIDGET-9');
    const card = reply.json as { blocks?: unknown[] };
    const refresh = buttonLabelled(card, 'Refresh');
    run.sandbox.setFaults({ latencyMs: SLOW_ERP_MS, jitterMs: 0 });
    try {
      const { reply: click, responseUrl } = await run.click(refresh.action_id, refresh.value ?? '');
      expect(click.status).toBe(200);
      // The acknowledgement did not wait for the answer: at most the working line came yet.
      expect(run.slack.responses(responseUrl).length).toBeLessThanOrEqual(1);
      const [working, answer] = await run.slack.waitForResponses(responseUrl, 2, 8000);
      expect(working?.body.replace_original).toBe(true);
      expect(answer?.body.replace_original).toBe(true);
      buttonLabelled(answer?.body ?? {}, 'Refresh');
    } finally {
      run.sandbox.setFaults({ latencyMs: 10 });
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
