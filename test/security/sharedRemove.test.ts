/**
 * Remove on a shared message, and Share pressed twice, through Bolt's real HTTP receiver with
 * signed requests (sandbox ERP over HTTP, the fake Slack): Remove is decided from the app's
 * own record of the share, never from the button's value or the payload's channel; the
 * sharer's confirmation says when it was removed; a repeated Share posts once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalAnswer, type Message } from '../e2e/helpers/conversation.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonsOf, type FoundButton, textOf } from '../helpers/blocks.js';
import { eventuallyLogged } from '../helpers/eventually.js';
import {
  type BlockActionsOptions,
  blockActionsPayload,
  interactionForm,
  postToSlackApp,
} from '../helpers/slack/index.js';
import { SLACK_DEFAULTS } from '../helpers/slack/payloads.js';

const SHARER = SLACK_DEFAULTS.userId;
const ANSWER_WAIT_MS = 8000;

let run: RunningApp;

beforeAll(async () => {
  run = await startApp({ logLevel: 'info' });
});
afterAll(async () => {
  await run?.stop();
});

const labelled = (message: Message, label: string): FoundButton => {
  const found = buttonsOf(message).find((b) => b.text.startsWith(label));
  if (!found) throw new Error(`no "${label}" button in: ${textOf(message).slice(0, 300)}`);
  return found;
};

async function card(): Promise<Message> {
  const sent = await run.command('/stock', 'WIDGET-9');
  return finalAnswer(run, sent.responseUrl, sent.ack);
}

/** Presses a button; resolves with the first `count` posts to the click's response_url. */
async function press(
  button: FoundButton,
  options: Partial<BlockActionsOptions> = {},
  count = 1,
): Promise<{ posts: Message[]; responseUrl: string }> {
  const sent = await run.click(button.action_id, button.value ?? '', options);
  expect(sent.reply.status).toBe(200);
  const posts = await run.slack.waitForResponses(sent.responseUrl, count, ANSWER_WAIT_MS);
  return { posts: posts.map((p) => p.body as Message), responseUrl: sent.responseUrl };
}

/** Shares a fresh card; the shared message, and the response_url of the Share click. */
async function share(): Promise<{ shared: Message; shareUrl: string }> {
  const { posts, responseUrl } = await press(labelled(await card(), 'Share to channel'), {}, 2);
  const shared = posts.find((p) => p.response_type === 'in_channel');
  if (!shared) throw new Error('nothing was shared');
  return { shared, shareUrl: responseUrl };
}

/** Remove pressed on `shared`, as it sits in the channel everyone sees. */
const removeOn = (shared: Message, options: Partial<BlockActionsOptions> = {}) =>
  press(labelled(shared, 'Remove'), {
    isEphemeral: false,
    messageBlocks: shared.blocks ?? [],
    ...options,
  });

/** A Remove button with this value, as a crafted request would carry it. */
const pressRemove = (value: object) =>
  press({
    text: 'Remove',
    action_id: 'shared_remove',
    value: JSON.stringify(value),
    block_id: 'a',
  });

describe('Remove trusts the app’s record of the share', () => {
  it('the sharer removes it through the click, and their confirmation says so', async () => {
    const { shared, shareUrl } = await share();
    const remove = labelled(shared, 'Remove');
    // The value names the share, not the sharer.
    expect(remove.value).not.toContain(SHARER);

    const { posts } = await removeOn(shared);
    expect(posts[0]).toEqual({ delete_original: true });
    const confirmation = await run.slack.waitForResponses(shareUrl, 3, ANSWER_WAIT_MS);
    expect(confirmation[2]?.body).toMatchObject({ replace_original: true });
    expect(textOf(confirmation[2]?.body ?? {})).toContain('Removed what you shared to');
    expect(run.slack.calls('chat.delete')).toHaveLength(0);

    // Forgotten once removed: the same button again removes nothing.
    const again = await removeOn(shared);
    expect(again.posts[0]?.delete_original).toBeUndefined();
    expect(textOf(again.posts[0] ?? {})).toContain('can no longer be removed from here');
  });

  it('anyone else is told privately who can, and nothing is deleted', async () => {
    const { shared } = await share();
    const { posts } = await removeOn(shared, { userId: 'UOTHER01' });
    expect(posts[0]?.delete_original).toBeUndefined();
    expect(posts[0]?.replace_original).toBe(false);
    expect(textOf(posts[0] ?? {})).toContain(`Only <@${SHARER}> can remove`);
  });

  it('the sharer’s id from another workspace (Slack Connect) is refused', async () => {
    const { shared } = await share();
    const { posts } = await removeOn(shared, { userTeamId: 'T0PARTNER' });
    expect(posts[0]?.delete_original).toBeUndefined();
    expect(textOf(posts[0] ?? {})).toContain(`Only <@${SHARER}> can remove`);
  });

  it('a well-shaped share id the app never recorded removes nothing', async () => {
    const { posts } = await pressRemove({ v: 1, t: 'rm', s: 'AAAAAAAAAAAAAAAAAAAAAA' });
    expect(posts[0]?.delete_original).toBeUndefined();
    expect(textOf(posts[0] ?? {})).toContain('can no longer be removed from here');
  });

  it('a button of the old format, naming the presser as sharer, is refused as stale', async () => {
    const { posts } = await pressRemove({ v: 1, t: 'rm', u: SHARER });
    expect(posts[0]?.delete_original).toBeUndefined();
    expect(textOf(posts[0] ?? {})).toContain('older version');
    expect(run.slack.calls('chat.delete')).toHaveLength(0);
  });

  it('once the click’s response_url has expired, chat.delete goes to the recorded message only', async () => {
    const shareClick = run.slack.responseUrl();
    run.slack.expireResponseUrl(shareClick);
    const button = labelled(await card(), 'Share to channel');
    const sent = await run.click(button.action_id, button.value ?? '', {
      responseUrl: shareClick,
    });
    expect(sent.reply.status).toBe(200);
    const [posted] = await run.slack.waitForCalls('chat.postMessage', 1, ANSWER_WAIT_MS);
    const postedTs = String(posted?.reply.ts);
    const shared = { blocks: posted?.args.blocks as unknown[] };

    const removeClick = run.slack.responseUrl();
    run.slack.expireResponseUrl(removeClick);
    const remove = labelled(shared, 'Remove');
    // The payload points elsewhere; the record decides where the delete goes.
    await run.click(remove.action_id, remove.value ?? '', {
      responseUrl: removeClick,
      isEphemeral: false,
      channelId: 'C0ELSEWHERE',
      messageTs: '1700000000.000001',
      messageBlocks: shared.blocks,
    });
    const [deleted] = await run.slack.waitForCalls('chat.delete', 1, ANSWER_WAIT_MS);
    expect(deleted?.args).toMatchObject({ channel: SLACK_DEFAULTS.channelId, ts: postedTs });
  });
});

describe('Share pressed twice', () => {
  it('posts once; the second press is told privately, without a claim the first cannot keep', async () => {
    const button = labelled(await card(), 'Share to channel');
    const messageTs = '1760000000.000100';
    const first = await press(button, { messageTs }, 2);
    expect(first.posts.filter((p) => p.response_type === 'in_channel')).toHaveLength(1);
    const second = await press(button, { messageTs });
    expect(second.posts[0]?.response_type).toBe('ephemeral');
    expect(second.posts[0]?.replace_original).toBe(false);
    // The first press might still be running, or fail: the repeat does not say it was shared.
    expect(textOf(second.posts[0] ?? {})).toContain('did not post it again');
    expect(textOf(second.posts[0] ?? {})).not.toMatch(/already shared/i);
    expect(run.slack.responses(second.responseUrl)).toHaveLength(1);
  });

  it('Slack sending the same click again (x-slack-retry-num) is answered by nothing', async () => {
    const button = labelled(await card(), 'Share to channel');
    const messageTs = '1760000000.000200';
    await press(button, { messageTs }, 2);
    const responseUrl = run.slack.responseUrl();
    const payload = blockActionsPayload({
      actionId: button.action_id,
      value: button.value ?? '',
      responseUrl,
      messageTs,
    });
    const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
      signingSecret: SIGNING_SECRET,
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect(reply.status).toBe(200);
    await eventuallyLogged(run.logLines, 'share sent again by Slack', '"retry":1');
    expect(run.slack.responses(responseUrl)).toHaveLength(0);
  });
});
