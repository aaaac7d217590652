/**
 * Two replicas of the app on one Redis (REDIS_URL): a share made through one is removed, or
 * refused, by the other from the same record, and the same Share pressed again on the other
 * posts nothing more. Signed requests through each replica's Bolt HTTP receiver.
 */
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { type RunningApp, redisReady, startApp } from '../helpers/app.js';
import { buttonsOf, type FoundButton, textOf } from '../helpers/blocks.js';
import { sharedRedisOrSkip } from '../helpers/redis.js';
import { SLACK_DEFAULTS } from '../helpers/slack/payloads.js';
import { finalAnswer, type Message } from './helpers/conversation.js';

const available = await sharedRedisOrSkip('the replica share tests');
const WAIT_MS = 8000;

const labelled = (message: Message, label: string): FoundButton => {
  const found = buttonsOf(message).find((b) => b.text.startsWith(label));
  if (!found) throw new Error(`no "${label}" button in: ${textOf(message).slice(0, 300)}`);
  return found;
};

describe.skipIf(!available)('shares across two replicas sharing Redis', () => {
  let erp: RunningSandbox;
  let a: RunningApp;
  let b: RunningApp;

  beforeAll(async () => {
    erp = await startSandbox();
    const env = { REDIS_URL: process.env.REDIS_URL ?? '' };
    a = await startApp({ erp, env, logLevel: 'info' });
    b = await startApp({ erp, env, logLevel: 'info' });
    await redisReady(a, b);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await erp?.close();
  });

  /** A press on `replica`; the first `count` posts to its response_url. */
  async function press(
    replica: RunningApp,
    button: FoundButton,
    options: Parameters<RunningApp['click']>[2] = {},
    count = 1,
  ): Promise<Message[]> {
    const sent = await replica.click(button.action_id, button.value ?? '', options);
    expect(sent.reply.status).toBe(200);
    const posts = await replica.slack.waitForResponses(sent.responseUrl, count, WAIT_MS);
    return posts.map((p) => p.body as Message);
  }

  it('a share made on one replica is refused to others and removed for its sharer on the other', async () => {
    const sent = await a.command('/stock', 'WIDGET-9');
    const card = await finalAnswer(a, sent.responseUrl, sent.ack);
    const share = labelled(card, 'Share to channel');
    // Its own message each run: Redis outlives the run, and would remember this press.
    const messageTs = `${Math.floor(Date.now() / 1000)}.${String(randomInt(1e6)).padStart(6, '0')}`;
    const posts = await press(a, share, { messageTs }, 2);
    const shared = posts.find((p) => p.response_type === 'in_channel');
    if (!shared) throw new Error('nothing was shared');

    // The same Share pressed again, arriving at the other replica: posted once.
    const [again] = await press(b, share, { messageTs });
    expect(again?.response_type).toBe('ephemeral');
    expect(textOf(again ?? {})).toContain('did not post it again');

    const remove = labelled(shared, 'Remove');
    const onShared = { isEphemeral: false, messageBlocks: shared.blocks ?? [] };
    const [refused] = await press(b, remove, { ...onShared, userId: 'UOTHER01' });
    expect(refused?.delete_original).toBeUndefined();
    expect(textOf(refused ?? {})).toContain(`Only <@${SLACK_DEFAULTS.userId}> can remove`);
    const [removed] = await press(b, remove, onShared);
    expect(removed).toEqual({ delete_original: true });
  });
});
