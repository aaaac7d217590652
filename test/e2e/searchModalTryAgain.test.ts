/**
 * The search modal, when an item's card cannot be fetched because the ERP is not answering,
 * says so inside the modal with "Try again", which looks the same item up again and shows its
 * card in the modal. Signed interactions through Bolt's HTTP receiver, the fake Slack's views
 * API and the sandbox ERP made to fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH } from '../../src/views/searchModal.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonsOf, textOf } from '../helpers/blocks.js';
import { interactionForm, postToSlackApp } from '../helpers/slack/index.js';
import {
  globalShortcutPayload,
  modalSelectPayload,
  type OpenView,
} from '../helpers/slack/searchPayloads.js';

let run: RunningApp;

beforeAll(async () => {
  run = await startApp();
});
afterAll(async () => {
  await run?.stop();
});

async function send(payload: object): Promise<void> {
  const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
    signingSecret: SIGNING_SECRET,
  });
  expect(reply.status).toBe(200);
}

/** The view the app last put in the modal, once it has updated it `count` times in all. */
async function updatedView(count: number): Promise<OpenView & { blocks: unknown[] }> {
  const calls = await run.slack.waitForCalls('views.update', count);
  const args = calls.at(-1)?.args ?? {};
  const view = args.view as OpenView & { blocks: unknown[] };
  return { ...view, id: String(args.view_id) };
}

describe('the search modal while the ERP is down', () => {
  it('shows the failure with Try again, which shows the card once the ERP answers', async () => {
    await send(globalShortcutPayload('stock_search'));
    const [openCall] = await run.slack.waitForCalls('views.open', 1);
    const reply = openCall?.reply.view as { id: string; hash: string };
    const opened: OpenView = { ...(openCall?.args.view as OpenView), ...reply };

    let failed: OpenView & { blocks: unknown[] };
    run.sandbox.setFaults({ errorRate: 1 });
    try {
      await send(
        modalSelectPayload({
          view: opened,
          actionId: SEARCH.itemAction,
          blockId: SEARCH.itemBlock,
          type: 'external_select',
          value: 'WIDGET-90',
        }),
      );
      failed = await updatedView(1);
    } finally {
      run.sandbox.setFaults({ errorRate: 0 });
    }
    expect(textOf(failed)).toMatch(/ERP is not answering/);
    const again = buttonsOf(failed).find((b) => b.text === 'Try again');
    expect(again).toMatchObject({ action_id: SEARCH.retryAction, value: 'WIDGET-90' });

    const press = modalSelectPayload({
      view: failed,
      actionId: SEARCH.retryAction,
      blockId: SEARCH.retryBlock,
      type: 'static_select',
      value: 'unused',
    });
    await send({
      ...press,
      actions: [
        {
          type: 'button',
          action_id: SEARCH.retryAction,
          block_id: SEARCH.retryBlock,
          text: { type: 'plain_text', text: 'Try again' },
          value: again?.value,
          action_ts: '1760000000.000100',
        },
      ],
    });
    const card = await updatedView(2);
    expect(textOf(card)).toContain('WIDGET-90');
    expect(textOf(card)).not.toMatch(/ERP is not answering/);
    expect(JSON.stringify(card.blocks)).toContain('conversations_select');
    expect(JSON.parse(card.private_metadata ?? '{}')).toMatchObject({ code: 'WIDGET-90' });
  });

  it('an item that does not exist gets no Try again', async () => {
    const before = run.slack.calls('views.update').length;
    const [openCall] = run.slack.calls('views.open');
    const reply = openCall?.reply.view as { id: string; hash: string };
    await send(
      modalSelectPayload({
        view: { ...(openCall?.args.view as OpenView), ...reply },
        actionId: SEARCH.itemAction,
        blockId: SEARCH.itemBlock,
        type: 'external_select',
        value: 'NO-SUCH-ITEM-42',
      }),
    );
    const notFound = await updatedView(before + 1);
    expect(buttonsOf(notFound).map((b) => b.text)).not.toContain('Try again');
  });
});
