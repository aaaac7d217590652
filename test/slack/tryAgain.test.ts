/**
 * "Try again" on an answer that failed in a way that may pass: the ERP not answering. The
 * button asks the same command again, in place of the failure, once the ERP is back; an
 * answer about the question itself (not found) has none. Through Bolt's HTTP receiver, on the
 * sandbox ERP made to fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, click } from '../e2e/helpers/conversation.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';

describe('Try again', () => {
  let run: RunningApp;

  beforeAll(async () => {
    run = await startApp({ timing: { ackWithinMs: 250, workingAfterMs: 500 } });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('an ERP that does not answer: Try again asks the same command, answered in place', async () => {
    run.sandbox.setFaults({ errorRate: 1 });
    let failed: Awaited<ReturnType<typeof ask>>;
    try {
      failed = await ask(run, '/stock', 'WIDGET-90');
    } finally {
      run.sandbox.setFaults({ errorRate: 0 });
    }
    expect(textOf(failed)).toMatch(/ERP is not answering/);
    const again = buttonsOf(failed).find((b) => b.text === 'Try again');
    expect(JSON.parse(again?.value ?? '{}')).toEqual({ v: 1, t: 'rc', f: 'stock', x: 'WIDGET-90' });
    if (!again) throw new Error('no Try again button');
    const answered = await click(run, again);
    expect(answered.replace_original).toBe(true);
    expect(textOf(answered)).toMatch(/^WIDGET-90: /);
  });

  it('a button whose answer failed: Try again presses it again, with the same state', async () => {
    const list = await ask(run, '/stock', 'sprocket widget');
    const view = buttonsOf(list).find((b) => b.text === 'View');
    if (!view) throw new Error('no View on the list');
    run.sandbox.setFaults({ errorRate: 1 });
    let failed: Awaited<ReturnType<typeof click>>;
    try {
      failed = await click(run, view);
    } finally {
      run.sandbox.setFaults({ errorRate: 0 });
    }
    const again = buttonsOf(failed).find((b) => b.text === 'Try again');
    expect(again?.action_id).toBe(view.action_id);
    expect(again?.value).toBe(view.value);
    if (!again) throw new Error('no Try again button');
    const card = await click(run, again);
    expect(textOf(card)).toMatch(/available/);
  });

  it('a code that does not exist gets no Try again', async () => {
    const answer = await ask(run, '/stock', 'id:999999999');
    expect(buttonsOf(answer).map((b) => b.text)).not.toContain('Try again');
  });
});
