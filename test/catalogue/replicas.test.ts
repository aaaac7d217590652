/**
 * Two replicas on one Redis and one ERP credential: one crawls under the lease, the other
 * answers from the snapshot it publishes; the shared budget sees no 429.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/catalogue/catalogue.js';
import type { ErpClient } from '../../src/erp/client.js';
import type { LookupService } from '../../src/lookup/types.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { sharedRedisOrSkip } from '../helpers/redis.js';
import { crawlSide } from './rig.js';

const WINDOW_MS = 400;
const available = await sharedRedisOrSkip('catalogue replicas');
const prefix = `test-catalogue-${randomUUID().slice(0, 8)}:`;

interface Replica {
  redis: Redis;
  client: ErpClient;
  lookup: LookupService;
  catalogue: Catalogue;
}

let sandbox: RunningSandbox;
const replicas: Replica[] = [];

function replica(): Replica {
  const redis = new Redis(process.env.REDIS_URL ?? '', { maxRetriesPerRequest: 1 });
  const { client, lookup, catalogue } = crawlSide({
    sandbox,
    windowMs: WINDOW_MS,
    searchLimit: 20,
    redis,
    keyPrefix: prefix,
  });
  const built = { redis, client, lookup, catalogue };
  replicas.push(built);
  return built;
}

beforeAll(async () => {
  if (!available) return;
  sandbox = await startSandbox({
    seed: 9,
    limits: {
      getItem: 60,
      getContact: 60,
      searchItems: 20,
      searchContact: 20,
      windowMs: WINDOW_MS,
    },
    behaviour: { requireQuery: false },
  });
});

afterAll(async () => {
  for (const r of replicas) {
    await r.catalogue.close();
    await r.lookup.close();
    await r.client.close();
  }
  if (replicas[0]) {
    const keys = await replicas[0].redis.keys(`${prefix}*`);
    if (keys.length > 0) await replicas[0].redis.del(...keys);
  }
  for (const r of replicas) r.redis.disconnect();
  await sandbox?.close();
});

describe.skipIf(!available)('two replicas on Redis', () => {
  it('share one crawl: one holds the lease, the other loads its snapshot', async () => {
    const a = replica();
    const b = replica();
    await Promise.all([a.catalogue.tick(), b.catalogue.tick()]);
    const roles = [a.catalogue.status().role, b.catalogue.status().role].sort();
    expect(roles).toEqual(['follower', 'leader']);
    const [leader, follower] = a.catalogue.status().role === 'leader' ? [a, b] : [b, a];
    expect(leader.catalogue.crawlProgress()?.searches).toBeGreaterThan(0);
    expect(follower.catalogue.crawlProgress()?.searches).toBe(0);
    expect(leader.catalogue.store.size).toBe(sandbox.data.items.length);

    await follower.catalogue.tick();
    expect(follower.catalogue.crawlProgress()?.searches).toBe(0);
    expect(follower.catalogue.store.size).toBe(sandbox.data.items.length);
    expect(follower.catalogue.status().complete).toBe(true);
    const code = sandbox.data.items[0]?.record.code ?? '';
    expect(follower.catalogue.store.byCodeOf(code)?.code).toBe(code);
    expect(follower.catalogue.categories()).toEqual(leader.catalogue.categories());
    expect(sandbox.stats().rateLimited).toBe(0);
  }, 60_000);
});
