/**
 * Watches end to end over the sandbox ERP on real HTTP: the lookup service and its ledger,
 * the checker as one more getItem requester within its share, a user's lookup feeding the
 * watch state, and a sandbox stock move turning into one alert. Slack is a recording poster.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErpClient } from '../../src/erp/client.js';
import { ErpEvents } from '../../src/erp/events.js';
import { createUpstream, ledgerCheckBudget } from '../../src/lookup/lanes.js';
import { createMetrics } from '../../src/lookup/metrics.js';
import { lookupServiceOver } from '../../src/lookup/service.js';
import type { LookupService } from '../../src/lookup/types.js';
import type { Upstream } from '../../src/lookup/upstream.js';
import { moveSandboxStock } from '../../src/sandbox/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import type { WatchFeed } from '../../src/watches/feed.js';
import { createWatches, feedWatches, type Watches } from '../../src/watches/index.js';
import { textOf } from '../helpers/blocks.js';
import { silentLogger } from '../lookup/fakes.js';
import { FakeSlack, LIMITS } from './rig.js';
import { requireValue } from './stores.js';

const WINDOW_MS = 60_000;
let sandbox: RunningSandbox;
let client: ErpClient;
let lookup: LookupService;
let upstream: Upstream;
let watches: Watches;
let slack: FakeSlack;
const clock = { now: Date.now() };
/** The feed's recordings, so a test can wait for them instead of sleeping. */
const offers: Promise<void>[] = [];

beforeEach(async () => {
  sandbox = await startSandbox({
    seed: 11,
    limits: {
      getItem: 60,
      getContact: 60,
      searchItems: 20,
      searchContact: 20,
      windowMs: WINDOW_MS,
    },
  });
  const events = new ErpEvents();
  client = new ErpClient({
    baseUrl: sandbox.url,
    ...sandbox.credentials,
    timeoutMs: 5_000,
    events,
  });
  slack = new FakeSlack();
  let feed: WatchFeed | undefined;
  const metrics = createMetrics();
  upstream = createUpstream({
    credentialKey: client.credentialKey,
    limits: { getPerMinute: 60, searchPerMinute: 20, windowMs: WINDOW_MS },
    queueMaxWaitMs: 3_000,
    metrics,
    logger: silentLogger,
    now: Date.now,
  });
  lookup = lookupServiceOver({
    erp: client,
    ttlMs: 1,
    contactTtlMs: 1,
    maxBytes: 8 * 1024 * 1024,
    upstream,
    logger: silentLogger,
    metrics,
  });
  watches = createWatches({
    store: { kind: 'sqlite', dataDir: undefined, driver: 'sql.js' },
    erp: client,
    fetchItem: async (code, requester) => (await lookup.getItem({ code }, { requester })).data,
    budget: ledgerCheckBudget(upstream, LIMITS.share),
    poster: slack,
    limits: LIMITS,
    logger: silentLogger,
    now: () => clock.now,
  });
  feed = watches.feed;
  feedWatches(
    events,
    {
      setWatched: () => {},
      offer: (item, at) => {
        const recorded = feed?.offer(item, at) ?? Promise.resolve();
        offers.push(recorded);
        return recorded;
      },
    },
    () => clock.now,
  );
});

afterEach(async () => {
  await watches.close();
  await lookup.close();
  upstream.close();
  await client.close();
  await sandbox.close();
});

describe('watches over the sandbox ERP', () => {
  it('a stock move on the sandbox becomes one alert at the next check, within the share and without a 429', async () => {
    const code = requireValue(sandbox.data.items.find((i) => i.record.branches.length > 0)).record
      .code;
    moveSandboxStock(sandbox.data, code, { available: 50 });
    const made = await watches.service.create({
      teamId: 'T1',
      channelId: 'C1',
      userId: 'U1',
      code,
      branch: undefined,
      direction: 'below',
      threshold: 10,
    });
    expect(made).toMatchObject({ ok: true, past: false });
    expect(moveSandboxStock(sandbox.data, code, { available: 4 })).toMatchObject({
      ok: true,
      before: 50,
      after: 4,
    });

    clock.now += 61_000;
    const report = await watches.checker.tick();
    expect(report).toMatchObject({ held: true, checked: 1 });
    const alert = requireValue(slack.posts('C1')[1]);
    expect(textOf(alert.message)).toContain('Available:* 4');
    expect(textOf(alert.message)).toContain('(from 50)');
    expect(sandbox.stats().rateLimited).toBe(0);
  });

  it("a user's lookup records the change and the checker then only posts", async () => {
    const code = requireValue(sandbox.data.items.find((i) => i.record.branches.length > 0)).record
      .code;
    moveSandboxStock(sandbox.data, code, { available: 50 });
    await watches.service.create({
      teamId: 'T1',
      channelId: 'C1',
      userId: 'U1',
      code,
      branch: undefined,
      direction: 'below',
      threshold: 10,
    });
    await watches.checker.tick(); // learns the watched codes
    moveSandboxStock(sandbox.data, code, { available: 2 });
    clock.now += 5_000;
    await lookup.getItem({ code }, { requester: 'U2', refresh: true });
    await Promise.all(offers);
    const before = sandbox.stats().requests.getItem ?? 0;
    clock.now += 5_000;
    expect(await watches.checker.tick()).toMatchObject({ checked: 0 });
    expect(sandbox.stats().requests.getItem ?? 0).toBe(before);
    expect(textOf(requireValue(slack.posts('C1')[1]).message)).toContain('Available:* 2');
  });

  it('refuses a stock move on an unknown item or branch', () => {
    expect(moveSandboxStock(sandbox.data, 'NO-SUCH-CODE', { available: 1 })).toEqual({
      ok: false,
      reason: 'unknown_item',
    });
    const code = requireValue(sandbox.data.items[0]).record.code;
    expect(moveSandboxStock(sandbox.data, code, { available: 1, branch: 'atlantis' })).toEqual({
      ok: false,
      reason: 'unknown_branch',
    });
    expect(moveSandboxStock(sandbox.data, code, { available: -3 })).toEqual({
      ok: false,
      reason: 'bad_quantity',
    });
  });
});
