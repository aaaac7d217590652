/**
 * App Home as the person's workspace, Find contact, recent lookups and the suppliers list,
 * through Bolt's real HTTP receiver (signed requests) on the sandbox ERP over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../e2e/helpers/conversation.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { blockActionsPayload, interactionForm, postToSlackApp } from '../helpers/slack/index.js';
import { SLACK_DEFAULTS } from '../helpers/slack/payloads.js';
import { appHomeOpenedEnvelope, viewSubmissionPayload } from '../helpers/slack/searchPayloads.js';

async function post(run: RunningApp, body: string, json = false) {
  const reply = await postToSlackApp(run.eventsUrl, body, {
    signingSecret: SIGNING_SECRET,
    ...(json ? { contentType: 'application/json' } : {}),
  });
  expect(reply.status).toBe(200);
  return reply;
}

const openHome = (run: RunningApp, user?: string) =>
  post(run, JSON.stringify(appHomeOpenedEnvelope(user)), true);

/** A button on App Home: block_actions from a view, with no response_url. */
function homeClick(actionId: string, value: string) {
  const payload = blockActionsPayload({ actionId, value, responseUrl: '' }) as Record<
    string,
    unknown
  >;
  const { response_url: _none, channel: _channel, message: _message, ...rest } = payload;
  return interactionForm({
    ...rest,
    container: { type: 'view', view_id: 'VHOME0001' },
    view: { id: 'VHOME0001', type: 'home', hash: '1.home', blocks: [] },
  });
}

describe('App Home, Find contact and recent lookups', () => {
  let run: RunningApp;
  let code: string;

  beforeAll(async () => {
    run = await startApp();
    code = run.sandbox.examples().itemCodes[0] ?? 'WIDGET-9';
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('publishes Search stock, Find contact, recent lookups as buttons and one status line', async () => {
    await ask(run, '/stock', code);
    const before = run.slack.calls('views.publish').length;
    await openHome(run);
    const [call] = (await run.slack.waitForCalls('views.publish', before + 1)).slice(-1);
    const view = call?.args.view as { type: string; blocks: Array<Record<string, unknown>> };
    expect(view.type).toBe('home');
    const json = JSON.stringify(view.blocks);
    expect(json).toContain('"stock_search_open"');
    expect(json).toContain('"contact_find_open"');
    expect(json).toContain(`"value":"${code}"`);
    expect(json).toContain('home_recent_view');
    // The item just looked up is in the cache: its available quantity shows, with no ERP call.
    expect(json).toMatch(
      new RegExp(`\`${code}\`[^"]* · \\*-?[\\d,.]+\\* (available|over-allocated)`),
    );
    const status = view.blocks.filter((b) => JSON.stringify(b).includes('ERP connected'));
    expect(status.map((b) => b.type)).toEqual(['context']);
    for (const jargon of ['getItem', 'searchItems', 'left this minute', 'crawl']) {
      expect(json).not.toContain(jargon);
    }
    // Their watches follow, with a way to make one when there are none.
    expect(json).toContain('Your watches');
    expect(json).toContain('/stock watch [item code] below [number]');
  });

  it('draws Home with no ERP call: a recent item the cache holds shows its figure', async () => {
    await ask(run, '/stock', code);
    const getItems = run.sandbox.stats().requests.getItem ?? 0;
    const before = run.slack.calls('views.publish').length;
    await openHome(run);
    const [call] = (await run.slack.waitForCalls('views.publish', before + 1)).slice(-1);
    expect(JSON.stringify(call?.args.view)).toContain('available');
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(getItems);
  });

  it('shows the figure of an item looked up by id, and of a code typed in another case', async () => {
    const [byId, byCase] = run.sandbox.data.items.slice(5, 7).map((i) => i.record);
    if (!byId || !byCase) throw new Error('the sandbox has too few items');
    await ask(run, '/stock', `id:${byId.id}`);
    await ask(run, '/stock', byCase.code.toLowerCase());
    const getItems = run.sandbox.stats().requests.getItem ?? 0;
    const before = run.slack.calls('views.publish').length;
    await openHome(run);
    const [call] = (await run.slack.waitForCalls('views.publish', before + 1)).slice(-1);
    const json = JSON.stringify(call?.args.view);
    for (const item of [byId, byCase]) {
      expect(json).toMatch(
        new RegExp(`\`${item.code}\`[^"]* · \\*-?[\\d,.]+\\* (available|over-allocated)`),
      );
    }
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(getItems);
  });

  it('opens the Find contact modal, searches on submit and answers by a private message', async () => {
    const searchesBefore = run.sandbox.stats().requests.searchContact ?? 0;
    await post(run, homeClick('contact_find_open', ''));
    const [opened] = (await run.slack.waitForCalls('views.open', 1)).slice(-1);
    const modal = opened?.args.view as { callback_id: string };
    expect(modal.callback_id).toBe('contact_find_modal');
    // Opening searched nothing.
    expect(run.sandbox.stats().requests.searchContact ?? 0).toBe(searchesBefore);

    const words = run.sandbox.examples().contactSearches[0] ?? 'acme';
    const messagesBefore = run.slack.calls('chat.postMessage').length;
    const reply = await post(
      run,
      interactionForm(
        viewSubmissionPayload({
          view: { id: 'VFIND0001', callback_id: 'contact_find_modal' },
          values: {
            contact_find_text_block: {
              contact_find_text: { type: 'plain_text_input', value: words },
            },
          },
        }),
      ),
    );
    expect(reply.json).toMatchObject({ response_action: 'update' });
    const [sent] = (
      await run.slack.waitForCalls('chat.postMessage', messagesBefore + 1, 5000)
    ).slice(-1);
    expect(sent?.args.channel).toBe(SLACK_DEFAULTS.userId);
    expect(textOf(sent?.args as { text?: string; blocks?: unknown[] }).toLowerCase()).toContain(
      words.toLowerCase(),
    );
  });

  it('refuses an empty Find contact in the modal itself', async () => {
    const reply = await post(
      run,
      interactionForm(
        viewSubmissionPayload({
          view: { id: 'VFIND0002', callback_id: 'contact_find_modal' },
          values: {
            contact_find_text_block: {
              contact_find_text: { type: 'plain_text_input', value: '  ' },
            },
          },
        }),
      ),
    );
    expect(reply.json).toMatchObject({
      response_action: 'errors',
      errors: { contact_find_text_block: expect.any(String) },
    });
  });

  it('opens a recent lookup’s card in the search modal, updating it with the hash', async () => {
    const opens = run.slack.calls('views.open').length;
    const updates = run.slack.calls('views.update').length;
    await post(run, homeClick('home_recent_view:0', code));
    const [opened] = (await run.slack.waitForCalls('views.open', opens + 1)).slice(-1);
    expect(JSON.stringify(opened?.args.view)).toContain('Looking up');
    const [updated] = (await run.slack.waitForCalls('views.update', updates + 1, 5000)).slice(-1);
    expect(updated?.args.hash).toEqual(expect.any(String));
    const view = updated?.args.view as { private_metadata: string; blocks: unknown[] };
    expect(JSON.parse(view.private_metadata)).toMatchObject({ code });
    expect(JSON.stringify(view.blocks)).toContain('conversations_select');
  });
});

describe('App Home for someone the access lists refuse', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({ env: { STOCK_ALLOWED_USERS: 'U0SOMEONE1' } });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('publishes a short refusal view', async () => {
    await openHome(run);
    const [call] = await run.slack.waitForCalls('views.publish', 1);
    const json = JSON.stringify((call?.args.view as { blocks?: unknown[] } | undefined)?.blocks);
    expect(json).toContain('not open to you');
    expect(json).not.toContain('stock_search_open');
  });
});

describe('/stock suppliers and supplier:WORD', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp();
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('learns a supplier id from a filtered search, lists it, and resolves its name', async () => {
    const supplier = run.sandbox.data.suppliers[0];
    expect(supplier).toBeDefined();
    const item = run.sandbox.data.items.find((i) => i.supplierId === supplier?.id);
    const word = item?.record.code ?? '';
    await ask(run, '/stock', `${word} supplier:${supplier?.id}`);
    const list = await ask(run, '/stock', 'suppliers');
    expect(textOf(list)).toContain(`supplier:${supplier?.id}`);

    const nameWord = (supplier?.name ?? '').split(/[^\p{L}\p{N}]+/u).find((w) => w.length >= 3);
    const searchesBefore = run.sandbox.stats().requests.searchItems ?? 0;
    const found = await ask(run, '/stock', `${word} supplier:${nameWord}`);
    expect(textOf(found)).toContain(`is supplier:${supplier?.id}`);
    expect(run.sandbox.stats().requests.searchItems ?? 0).toBeGreaterThanOrEqual(searchesBefore);

    const unknown = await ask(run, '/stock', `${word} supplier:zzqqxx`);
    expect(textOf(unknown)).toContain('No supplier I know is called “zzqqxx”');
  });
});
