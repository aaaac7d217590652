/**
 * The "Search stock" modal and App Home through Bolt's real receivers (HTTP and Socket
 * Mode), on the sandbox ERP over real HTTP: shortcut → views.open; block_suggestion answered
 * from the index (no upstream search, so in time whatever the ERP's latency); a run of keystrokes costs at most one upstream search (none
 * once the index is complete); choosing an item shows its card; sharing posts it; App Home is
 * published.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { interactionForm, postToSlackApp } from '../helpers/slack/index.js';
import {
  appHomeOpenedEnvelope,
  blockSuggestionPayload,
  globalShortcutPayload,
  modalSelectPayload,
  type OpenView,
  viewSubmissionPayload,
} from '../helpers/slack/searchPayloads.js';

interface Acked {
  payload: unknown;
}

/** Sends an interaction and resolves with its ack (within `ACK_TIMEOUT_MS`, else it fails). */
async function sendInteraction(run: RunningApp, payload: object): Promise<Acked> {
  if (run.mode === 'socket') {
    const ack = await run.slack.sendEnvelope('interactive', payload);
    return { payload: ack.payload };
  }
  const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
    signingSecret: SIGNING_SECRET,
  });
  expect(reply.status).toBe(200);
  return { payload: reply.json };
}

async function sendEvent(run: RunningApp, envelope: object): Promise<void> {
  if (run.mode === 'socket') {
    await run.slack.sendEnvelope('events_api', envelope);
    return;
  }
  const reply = await postToSlackApp(run.eventsUrl, JSON.stringify(envelope), {
    signingSecret: SIGNING_SECRET,
    contentType: 'application/json',
  });
  expect(reply.status).toBe(200);
}

function optionValues(payload: unknown): string[] {
  const options = (payload as { options?: Array<{ value: string }> } | undefined)?.options;
  expect(Array.isArray(options)).toBe(true);
  return (options ?? []).map((o) => o.value);
}

function viewOfCall(args: Record<string, unknown>): OpenView & { blocks: unknown[] } {
  const view = args.view as OpenView & { blocks: unknown[] };
  return { ...view, id: String(args.view_id ?? 'V_OPENED') };
}

const searches = (run: RunningApp) => run.sandbox.stats().requests.searchItems ?? 0;

describe.each(['http', 'socket'] as const)('search modal over %s', (mode) => {
  let run: RunningApp;
  let opened: OpenView;

  beforeAll(async () => {
    run = await startApp({ mode });
    // Fill part of the index the way users do: a search, and one filtered by category 2.
    await run.services.lookup.searchItems({ words: ['widget'] }, 0);
    await run.services.lookup.searchItems({ words: ['e'], category: 2 }, 0);
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('opens the modal from the global shortcut stock_search', async () => {
    await sendInteraction(run, globalShortcutPayload('stock_search'));
    const [call] = await run.slack.waitForCalls('views.open', 1);
    const view = call?.args.view as { callback_id: string; blocks: unknown[] };
    expect(view.callback_id).toBe('stock_search_modal');
    const json = JSON.stringify(view.blocks);
    expect(json).toContain('"external_select"');
    expect(json).toContain('"stock_search_item"');
    expect(json).toContain('Widgets');
    const reply = call?.reply.view as { id: string; hash: string };
    opened = { ...view, id: reply.id, hash: reply.hash };
  });

  it('answers block_suggestion from the index with matching items', async () => {
    const before = searches(run);
    const ack = await sendInteraction(
      run,
      blockSuggestionPayload({
        view: opened,
        actionId: 'stock_search_item',
        blockId: 'stock_search_item_block',
        value: 'widget',
      }),
    );
    // From the index alone: the ERP was not asked, so its latency cannot delay the answer.
    expect(searches(run)).toBe(before);
    const codes = optionValues(ack.payload);
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) {
      const item = run.services.catalogue.store.byCodeOf(code);
      expect(`${item?.code} ${item?.description}`.toLowerCase()).toContain('widget');
    }
  });

  it('spends at most one upstream search on a run of keystrokes, none when the index is complete', async () => {
    const suggest = (value: string) =>
      sendInteraction(
        run,
        blockSuggestionPayload({
          view: opened,
          actionId: 'stock_search_item',
          blockId: 'stock_search_item_block',
          value,
        }),
      );
    const before = searches(run);
    for (const typed of ['ga', 'gas', 'gask', 'gaske', 'gasket']) await suggest(typed);
    expect(searches(run) - before).toBe(1);
    const last = await suggest('gasket');
    expect(optionValues(last.payload).length).toBeGreaterThan(0);

    const store = run.services.catalogue.store;
    const savedState = { ...store.state };
    store.state.lastFullPassAt = Date.now();
    try {
      const complete = searches(run);
      for (const typed of ['be', 'bea', 'bear', 'beari']) await suggest(typed);
      expect(searches(run)).toBe(complete);
    } finally {
      store.state = savedState;
    }
  });

  it('filters suggestions by the chosen category', async () => {
    await sendInteraction(
      run,
      modalSelectPayload({
        view: opened,
        actionId: 'stock_search_category',
        blockId: 'stock_search_filter',
        type: 'static_select',
        value: '2',
      }),
    );
    const calls = await run.slack.waitForCalls('views.update', 1);
    const updated = viewOfCall(calls.at(-1)?.args ?? {});
    expect(JSON.parse(updated.private_metadata ?? '{}')).toEqual({ category: 2 });
    const ack = await sendInteraction(
      run,
      blockSuggestionPayload({
        view: updated,
        actionId: 'stock_search_item',
        blockId: 'stock_search_item_block',
        value: 'e',
      }),
    );
    const codes = optionValues(ack.payload);
    expect(codes.length).toBeGreaterThan(0);
    for (const code of codes) {
      expect(run.services.catalogue.store.byCodeOf(code)?.category).toBe('Widgets');
    }
  });

  it('shows the chosen item’s card in the modal and shares it to a channel', async () => {
    const code = run.sandbox.examples().itemCodes[0] ?? 'WIDGET-9';
    const before = run.slack.calls('views.update').length;
    await sendInteraction(
      run,
      modalSelectPayload({
        view: opened,
        actionId: 'stock_search_item',
        blockId: 'stock_search_item_block',
        type: 'external_select',
        value: code,
      }),
    );
    const calls = await run.slack.waitForCalls('views.update', before + 1);
    const withCard = viewOfCall(calls.at(-1)?.args ?? {});
    expect(JSON.stringify(withCard.blocks)).toContain(code);
    expect(JSON.stringify(withCard.blocks)).toContain('conversations_select');
    expect(JSON.parse(withCard.private_metadata ?? '{}')).toMatchObject({ code });

    const ack = await sendInteraction(
      run,
      viewSubmissionPayload({
        view: withCard,
        values: {
          stock_search_share: {
            stock_search_conversation: {
              type: 'conversations_select',
              selected_conversation: 'C0FAKESHARE',
            },
          },
          stock_search_audience: {
            stock_search_audience_choice: {
              type: 'radio_buttons',
              selected_option: { value: 'everyone' },
            },
          },
        },
      }),
    );
    // The modal closes on the acknowledgement (no errors); the card is posted afterwards.
    expect(ack.payload ?? {}).not.toHaveProperty('response_action');
    const [posted] = await run.slack.waitForCalls('chat.postMessage', 1);
    expect(posted?.args.channel).toBe('C0FAKESHARE');
    expect(JSON.stringify(posted?.args.blocks)).toContain(code);
  });

  it('publishes App Home with the Search stock button, the status line and recent lookups', async () => {
    await sendEvent(run, appHomeOpenedEnvelope());
    const [call] = await run.slack.waitForCalls('views.publish', 1);
    const view = call?.args.view as { type: string; blocks: unknown[] };
    expect(view.type).toBe('home');
    const json = JSON.stringify(view.blocks);
    expect(json).toContain('Search stock');
    expect(json).toContain('ERP connected');
    expect(json).toContain('search knows');
    // The card chosen in the modal above is a recent lookup (codes only), as a button.
    expect(json).toContain(`"value":"${run.sandbox.examples().itemCodes[0] ?? 'WIDGET-9'}"`);
  });
});
