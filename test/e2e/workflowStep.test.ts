/**
 * The Workflow Builder step "Look up stock" from outside: a signed `function_executed` event
 * over Bolt's real HTTP receiver (and one over Socket Mode), the sandbox ERP over HTTP, and
 * the run completed through the fake Slack's functions.completeSuccess / completeError.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockVerdict } from '../../src/rules/stock.js';
import { verdictWithPlanSentence } from '../../src/views/planParts.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { functionExecutedEnvelope } from '../helpers/slack/functionPayloads.js';
import { postToSlackApp } from '../helpers/slack/index.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp();
});
afterAll(async () => {
  await run?.stop();
});

/** Sends one run and resolves with the completion call the app made for it. */
async function runStep(target: RunningApp, inputs: Record<string, unknown>) {
  const body = functionExecutedEnvelope(inputs);
  const reply = await postToSlackApp(target.eventsUrl, JSON.stringify(body), {
    signingSecret: SIGNING_SECRET,
    contentType: 'application/json',
  });
  expect(reply.status).toBe(200);
  return completionOf(target, body.event.function_execution_id, body.event.bot_access_token);
}

async function completionOf(target: RunningApp, executionId: string, token: string) {
  const mine = () =>
    target.slack
      .calls()
      .filter(
        (c) => c.method.startsWith('functions.') && c.args.function_execution_id === executionId,
      );
  await waitUntil(() => mine().length > 0);
  const calls = mine();
  expect(calls).toHaveLength(1);
  const [call] = calls;
  if (call === undefined) throw new Error('no completion');
  // Bolt completes with the run's own workflow token, and Slack accepted the call.
  expect(call.token).toBe(token);
  expect(call.reply).toEqual({ ok: true });
  return call;
}

async function waitUntil(done: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the step to complete');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the workflow step over HTTP', () => {
  it('completes WIDGET-9 / 50 / perth with can_supply false and the on-order figure', async () => {
    const call = await runStep(run, { item_code: 'WIDGET-9', quantity: 50, branch: 'perth' });
    expect(call.method).toBe('functions.completeSuccess');
    const { data: item } = await run.services.listeners.lookup.getItem({ code: 'WIDGET-9' });
    const perth = item.branches.find((b) => b.name.toLowerCase().startsWith('perth'));
    if (perth === undefined) throw new Error('the sandbox WIDGET-9 has no Perth branch');
    const verdict = stockVerdict(item, { quantity: 50, branchWords: ['perth'] });
    expect(call.args.outputs).toEqual({
      available: Math.max(perth.soh - perth.allocated, 0),
      on_order: perth.onorder,
      can_supply: false,
      // No other branch holds 50, and no split over three of them does either.
      split_possible: false,
      description: item.description,
      // The same sentence /stock WIDGET-9 50 perth leads its card with, with its plan.
      summary: verdictWithPlanSentence(verdict),
    });
    expect(String(call.args.outputs && (call.args.outputs as { summary: string }).summary)).toMatch(
      /^No, 50 of WIDGET-9 at Perth: Perth has 0 free/,
    );
  });

  it('says a split fills 40 at Sydney, and a company-wide 60 cannot be filled', async () => {
    const split = await runStep(run, { item_code: 'WIDGET-9', quantity: 40, branch: 'sydney' });
    expect(split.args.outputs).toMatchObject({ can_supply: false, split_possible: true });
    expect(String((split.args.outputs as { summary: string }).summary)).toContain(
      'Options: Split: 37 Sydney + 3 Brisbane',
    );
    const none = await runStep(run, { item_code: 'WIDGET-9', quantity: 60 });
    expect(none.args.outputs).toMatchObject({ can_supply: false, split_possible: false });
  });

  it('counts its No answers in unmet demand, as the commands do (a Yes adds nothing)', async () => {
    const { demand } = run.services.watches;
    const countOf = async (branchName: string | undefined) =>
      (await demand.recent(7, 50)).find(
        (row) => row.code === 'WIDGET-9' && row.branchName === branchName,
      )?.count ?? 0;
    const before = { perth: await countOf('Perth'), all: await countOf(undefined) };
    await runStep(run, { item_code: 'WIDGET-9', quantity: 500, branch: 'perth' });
    await runStep(run, { item_code: 'WIDGET-9', quantity: 900 });
    await runStep(run, { item_code: 'WIDGET-9', quantity: 1 });
    await runStep(run, { item_code: 'WIDGET-9' });
    // The count is written beside the answer, not before it: waited for, never slept on.
    await eventually(async () => {
      expect({ perth: await countOf('Perth'), all: await countOf(undefined) }).toEqual({
        perth: before.perth + 1,
        all: before.all + 1,
      });
    });
  });

  it('answers company-wide without a branch, and any stock without a quantity', async () => {
    const call = await runStep(run, { item_code: 'WIDGET-9' });
    expect(call.method).toBe('functions.completeSuccess');
    const { data: item } = await run.services.listeners.lookup.getItem({ code: 'WIDGET-9' });
    const available = item.soh - item.allocated;
    expect(call.args.outputs).toMatchObject({
      available: Math.max(available, 0),
      on_order: item.onorder,
      can_supply: available > 0,
    });
  });

  it('fails an unknown code with a sentence naming it', async () => {
    const call = await runStep(run, { item_code: 'NO-SUCH-ITEM-42', quantity: 1 });
    expect(call.method).toBe('functions.completeError');
    expect(call.args.error).toBe(
      'No item has the code “NO-SUCH-ITEM-42” in the ERP; check the code the workflow passes.',
    );
  });

  it('fails an unknown branch with the item’s branches', async () => {
    const call = await runStep(run, { item_code: 'WIDGET-9', quantity: 5, branch: 'atlantis' });
    expect(call.method).toBe('functions.completeError');
    const { data: item } = await run.services.listeners.lookup.getItem({ code: 'WIDGET-9' });
    const error = String(call.args.error);
    expect(error).toMatch(/^“atlantis” is not a branch of WIDGET-9; its branches are /);
    for (const branch of item.branches.slice(0, 3)) expect(error).toContain(branch.name);
  });

  it('fails bad inputs before any ERP call', async () => {
    const before = run.sandbox.stats().requests.getItem ?? 0;
    const noCode = await runStep(run, { quantity: 5 });
    expect(noCode.method).toBe('functions.completeError');
    expect(noCode.args.error).toMatch(/needs an item code/);
    const negative = await runStep(run, { item_code: 'WIDGET-9', quantity: -3 });
    expect(negative.args.error).toMatch(/"Quantity" input must be a whole number/);
    const fraction = await runStep(run, { item_code: 'WIDGET-9', quantity: 2.5 });
    expect(fraction.args.error).toMatch(/"Quantity" input must be a whole number/);
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(before);
  });
});

describe('the workflow step while the ERP is down', () => {
  it('fails with a sentence saying when the step can be run again (a run has no button)', async () => {
    run.sandbox.setFaults({ errorRate: 1 });
    try {
      // Not looked up before: the cache cannot answer it.
      const call = await runStep(run, { item_code: 'WIDGET-90', quantity: 1 });
      expect(call.method).toBe('functions.completeError');
      expect(call.args.error).toBe(
        'The ERP is not answering; the step can be run again in a minute.',
      );
    } finally {
      run.sandbox.setFaults({ errorRate: 0 });
    }
  });
});

describe('the workflow step over Socket Mode', () => {
  let socket: RunningApp;
  beforeAll(async () => {
    socket = await startApp({ mode: 'socket', erp: run.sandbox });
  });
  afterAll(async () => {
    await socket?.stop();
  });

  it('completes a run that arrives in an events_api envelope', async () => {
    const body = functionExecutedEnvelope({ item_code: 'WIDGET-9', quantity: 1 });
    await socket.slack.sendEnvelope('events_api', body);
    const call = await completionOf(
      socket,
      body.event.function_execution_id,
      body.event.bot_access_token,
    );
    expect(call.method).toBe('functions.completeSuccess');
    expect(call.args.outputs).toMatchObject({ can_supply: expect.any(Boolean) });
  });
});

describe('the workflow step with stock access lists set', () => {
  let listed: RunningApp;
  beforeAll(async () => {
    listed = await startApp({ erp: run.sandbox, env: { STOCK_ALLOWED_USERS: 'UALLOWED01' } });
  });
  afterAll(async () => {
    await listed?.stop();
  });

  it('refuses every run (a run carries no person) without an ERP call', async () => {
    const before = run.sandbox.stats().requests.getItem ?? 0;
    const call = await runStep(listed, { item_code: 'WIDGET-9', quantity: 1 });
    expect(call.method).toBe('functions.completeError');
    expect(call.args.error).toMatch(/workflows cannot use this step; ask an admin/);
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(before);
  });
});
