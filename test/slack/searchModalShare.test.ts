/**
 * "Share to channel" from the search modal, through Bolt's real HTTP receiver (signed
 * requests) on the sandbox ERP over real HTTP: Slack is acknowledged before the lookup, the
 * card goes through the submission's response_url (the app need not be in the channel), a
 * failure is told to the user alone, a submission Slack sends again is shared once, and
 * "Only me" needs no conversation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { type ErpProxy, startErpProxy } from '../e2e/helpers/recordingProxy.js';
import { searchShareSubmission, submitSearchShare } from '../e2e/helpers/searchShare.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { eventually, eventuallyLogged } from '../helpers/eventually.js';
import { SLACK_DEFAULTS } from '../helpers/slack/payloads.js';
import { modalSelectPayload } from '../helpers/slack/searchPayloads.js';

const CHANNEL = 'C0FAKESHARE';

const submission = searchShareSubmission;
const submit = submitSearchShare;

describe('search modal Share', () => {
  let erp: RunningSandbox;
  let proxy: ErpProxy;
  let run: RunningApp;
  let code: string;
  /** Response URLs and how many messages each must end the file with (checked last). */
  const endsWith = new Map<string, number>();

  beforeAll(async () => {
    erp = await startSandbox();
    // Between the app and the ERP, so that a test can hold the ERP's answers back.
    proxy = await startErpProxy(erp.url);
    run = await startApp({ erp, env: { ERP_BASE_URL: proxy.url } });
    code = run.sandbox.examples().itemCodes[0] ?? 'WIDGET-9';
  });
  afterAll(async () => {
    // By now every other test of the file has run: nothing came late to these.
    for (const [url, count] of endsWith) expect(run.slack.responses(url), url).toHaveLength(count);
    await run?.stop();
    await proxy?.close();
    await erp?.close();
  });
  afterEach(() => {
    proxy.gate = undefined;
    for (const method of ['chat.postMessage', 'chat.postEphemeral']) {
      run.slack.setFailure(method, undefined);
    }
  });

  it('acknowledges before a slow lookup, then posts through the response_url with Shared by', async () => {
    const answer = proxy.hold();
    const { payload, responseUrl } = submission(run, { code: `${code}`, channel: CHANNEL });
    const reply = await submit(run, payload);
    const ackedAt = Date.now();
    // The modal closes at once: an empty acknowledgement, while the ERP has not answered
    // (the proxy holds the lookup back until the test lets it go).
    expect(reply.json ?? {}).not.toHaveProperty('response_action');
    await eventually(() =>
      expect(proxy.seen.map((seen) => seen.target)).toContain(
        `/api/getItem/${encodeURIComponent(code)}`,
      ),
    );
    expect(run.slack.responses(responseUrl)).toHaveLength(0);
    answer();
    const [posted] = await run.slack.waitForResponses(responseUrl, 1, 8000);
    expect(posted?.at).toBeGreaterThanOrEqual(ackedAt);
    expect(posted?.body.response_type).toBe('in_channel');
    const json = JSON.stringify(posted?.body.blocks);
    expect(json).toContain(code);
    expect(json).toContain(`Shared by <@${SLACK_DEFAULTS.userId}>`);
    expect(json).toContain('Remove');
    // Redacted as every shared card: no internal cost.
    expect(json).not.toContain('Cost (internal)');
    expect(run.slack.calls('chat.postMessage')).toHaveLength(0);
  });

  /** The same submission twice; the second with these headers. */
  async function submitTwice(viewId: string, again: Record<string, string> = {}) {
    const { payload, responseUrl } = submission(run, { code, channel: CHANNEL, viewId });
    await submit(run, payload);
    await submit(run, payload, again);
    return responseUrl;
  }

  it('shares once when Slack sends the same submission again, and says nothing more', async () => {
    const responseUrl = await submitTwice('VRETRY01', {
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });
    // Both deliveries have been dealt with: the card once; Slack's retry is no press of the
    // person's, so it tells them nothing (the first may yet fail, and then says so itself).
    const posts = await run.slack.waitForResponses(responseUrl, 1, 5000);
    await eventuallyLogged(run.logLines, 'search modal share sent again by Slack', '"retry":1');
    expect(run.slack.responses(responseUrl)).toHaveLength(1);
    expect(posts[0]?.body.response_type).toBe('in_channel');
    endsWith.set(responseUrl, 1);
  });

  it('a second submission of the same share is told privately, not that it was shared', async () => {
    const responseUrl = await submitTwice('VTWICE01');
    const posts = await run.slack.waitForResponses(responseUrl, 2, 5000);
    expect(posts.filter((p) => p.body.response_type === 'in_channel')).toHaveLength(1);
    const notice = posts.find((p) => p.body.response_type === 'ephemeral');
    expect(JSON.stringify(notice?.body)).toContain('did not post it again');
    expect(JSON.stringify(notice?.body)).not.toMatch(/already shared/i);
    endsWith.set(responseUrl, 2);
  });

  it('falls back to chat.postMessage without a response_url', async () => {
    const before = run.slack.calls('chat.postMessage').length;
    const { payload } = submission(run, { code, channel: CHANNEL });
    await submit(run, { ...payload, response_urls: [] });
    const calls = await run.slack.waitForCalls('chat.postMessage', before + 1, 5000);
    expect(calls.at(-1)?.args.channel).toBe(CHANNEL);
    expect(JSON.stringify(calls.at(-1)?.args.blocks)).toContain('Shared by');
  });

  it('tells a failed post to the user alone, never in the channel', async () => {
    run.slack.setFailure('chat.postMessage', 'not_in_channel');
    const before = run.slack.calls('chat.postEphemeral').length;
    const { payload } = submission(run, { code, channel: CHANNEL });
    await submit(run, { ...payload, response_urls: [] });
    const calls = await run.slack.waitForCalls('chat.postEphemeral', before + 1, 5000);
    const told = calls.at(-1)?.args;
    expect(told?.user).toBe(SLACK_DEFAULTS.userId);
    expect(String(told?.text)).toContain('/invite');
  });

  it('tells a failed lookup privately through the response_url, with nothing in_channel', async () => {
    const { payload, responseUrl } = submission(run, { code: 'NO-SUCH-ITEM-42', channel: CHANNEL });
    await submit(run, payload);
    const [told] = await run.slack.waitForResponses(responseUrl, 1, 5000);
    expect(told?.body.response_type).toBe('ephemeral');
    // That one message is all it sends (the file's end checks that nothing came later).
    expect(run.slack.responses(responseUrl)).toHaveLength(1);
    endsWith.set(responseUrl, 1);
  });

  it('"Only me" needs no conversation: the card comes as a direct message', async () => {
    const before = run.slack.calls('chat.postMessage').length;
    const { payload } = submission(run, { code, audience: 'me' });
    const reply = await submit(run, payload);
    expect(reply.json ?? {}).not.toHaveProperty('response_action');
    const calls = await run.slack.waitForCalls('chat.postMessage', before + 1, 5000);
    expect(calls.at(-1)?.args.channel).toBe(SLACK_DEFAULTS.userId);
    expect(JSON.stringify(calls.at(-1)?.args.blocks)).not.toContain('Shared by');
  });

  it('sends the view’s hash when the chosen item’s card replaces the modal', async () => {
    const before = run.slack.calls('views.update').length;
    const payload = modalSelectPayload({
      view: { id: 'VHASH001', hash: '1760000001.HashOne', private_metadata: '{}' },
      actionId: 'stock_search_item',
      blockId: 'stock_search_item_block',
      type: 'external_select',
      value: code,
    });
    await submit(run, payload);
    const calls = await run.slack.waitForCalls('views.update', before + 1, 5000);
    expect(calls.at(-1)?.args).toMatchObject({ view_id: 'VHASH001', hash: '1760000001.HashOne' });
  });

  it('asks for a conversation when sharing with everyone without one', async () => {
    const { payload } = submission(run, { code });
    const reply = await submit(run, payload);
    expect(reply.json).toMatchObject({
      response_action: 'errors',
      errors: { stock_search_share: expect.stringContaining('Only me') },
    });
  });
});
