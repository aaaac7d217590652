/**
 * Follow-ups across replicas: two app instances sharing the Redis at REDIS_URL. A question
 * asked on the first and its follow-up asked on the second ("and in sydney?") is read as the
 * first's question at Sydney; without the shared memory the second would not know it.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/log/logger.js';
import {
  conversationKey,
  FOLLOW_UP_MS,
  RedisConversations,
  readInConversation,
} from '../../src/slack/words/followUps.js';
import { eventually } from '../helpers/eventually.js';
import { sharedRedisOrSkip } from '../helpers/redis.js';

const url = process.env.REDIS_URL;
const available = await sharedRedisOrSkip('follow-ups shared through Redis');
const logger = createLogger({ level: 'silent' });
const apps: Services[] = [];
let probe: Redis | undefined;
// Each run its own conversation: no key left by an earlier run is read.
const conversation = conversationKey(`D${Date.now().toString(36).toUpperCase()}`, '1.2');

beforeAll(async () => {
  if (!available) return;
  probe = new Redis(url ?? '');
  for (let i = 0; i < 2; i += 1) {
    apps.push(await createServices(loadConfig({ REDIS_URL: url }), logger));
  }
  // Each instance's Redis client connected (it queues no command before): its write lands.
  for (const [i, app] of apps.entries()) {
    const key = `${conversation}:probe${i}`;
    await eventually(async () => {
      await app.listeners.words?.memory?.remember(key, {
        kind: 'item',
        code: 'X1',
        branchWords: [],
      });
      expect(await probe?.get(`erp-lookups:words:last:${key}`)).not.toBeNull();
    });
    await probe.del(`erp-lookups:words:last:${key}`);
  }
});
afterAll(async () => {
  await probe?.del(`erp-lookups:words:last:${conversation}`);
  probe?.disconnect();
  for (const app of apps) await app.close();
});

describe.skipIf(!available)('follow-ups shared by replicas through Redis', () => {
  it('reads a follow-up on the second instance with the first one question', async () => {
    const [first, second] = apps;
    if (!first || !second) throw new Error('two instances expected');
    const asked = await readInConversation(
      first.listeners,
      'have we got 50 WIDGET-9 in perth?',
      conversation,
    );
    expect(asked).toMatchObject({ kind: 'request', request: { kind: 'item', code: 'WIDGET-9' } });
    const followUp = await readInConversation(second.listeners, 'and in sydney?', conversation);
    expect(followUp).toEqual({
      kind: 'request',
      request: { kind: 'item', code: 'WIDGET-9', quantity: 50, branchWords: ['sydney'] },
    });
    // Kept ten minutes, in Redis itself.
    const ttl = await probe?.pttl(`erp-lookups:words:last:${conversation}`);
    expect(ttl).toBeGreaterThan(FOLLOW_UP_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(FOLLOW_UP_MS);
  });

  it('reads nothing another version wrote that is no question', async () => {
    if (!probe) throw new Error('no redis');
    const memory = new RedisConversations(probe, 'erp-lookups:test:');
    await probe.set('erp-lookups:test:words:last:X', '{"kind":"item","code":""}', 'PX', 5_000);
    expect(await memory.recall('X')).toBeUndefined();
    await probe.del('erp-lookups:test:words:last:X');
  });
});
