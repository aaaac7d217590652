/**
 * One replica for crawl tests: an ERP client on the sandbox, the lookup service feeding the
 * catalogue's store, the crawl's budget adapter over its ledger (memory, or Redis), and the
 * catalogue itself (refresh every minute; shared through Redis when given).
 */
import type { Redis } from 'ioredis';
import { Catalogue } from '../../src/catalogue/catalogue.js';
import { CatalogueStore, feedCatalogue } from '../../src/catalogue/store.js';
import { ErpClient } from '../../src/erp/client.js';
import { ErpEvents } from '../../src/erp/events.js';
import { createUpstream, ledgerCrawlBudget } from '../../src/lookup/lanes.js';
import { createMetrics } from '../../src/lookup/metrics.js';
import { RedisHealth } from '../../src/lookup/redis.js';
import { lookupServiceOver } from '../../src/lookup/service.js';
import type { LookupService } from '../../src/lookup/types.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { silentLogger } from '../lookup/fakes.js';

export interface CrawlSide {
  client: ErpClient;
  lookup: LookupService;
  catalogue: Catalogue;
}

export function crawlSide(o: {
  sandbox: RunningSandbox;
  windowMs: number;
  searchLimit: number;
  redis?: Redis;
  keyPrefix?: string;
  /** CATALOGUE_MAX_ITEMS; default the store's. */
  maxItems?: number;
}): CrawlSide {
  const store = new CatalogueStore({ maxItems: o.maxItems });
  const events = new ErpEvents();
  const client = new ErpClient({
    baseUrl: o.sandbox.url,
    ...o.sandbox.credentials,
    timeoutMs: 5_000,
    events,
  });
  feedCatalogue(events, store, Date.now);
  const metrics = createMetrics();
  const shared = o.redis && { redis: o.redis, health: new RedisHealth(o.redis, silentLogger) };
  const upstream = createUpstream({
    credentialKey: client.credentialKey,
    limits: { getPerMinute: 60, searchPerMinute: o.searchLimit, windowMs: o.windowMs },
    queueMaxWaitMs: 5_000,
    shared: shared && { ...shared, keyPrefix: o.keyPrefix ?? 'erp-lookups:' },
    metrics,
    logger: silentLogger,
    now: Date.now,
  });
  const lookup = lookupServiceOver({
    erp: client,
    upstream,
    ttlMs: 60_000,
    contactTtlMs: 30_000,
    maxBytes: 8 * 1024 * 1024,
    shared,
    keyPrefix: o.keyPrefix,
    logger: silentLogger,
    metrics,
  });
  const budget = ledgerCrawlBudget(upstream, 0.25);
  const catalogue = new Catalogue({
    lookup,
    erp: client,
    budget,
    store,
    logger: silentLogger,
    refreshMs: 60_000,
    coverMs: 60_000,
    ...(o.redis ? { redis: { client: o.redis, prefix: `${o.keyPrefix ?? ''}catalogue:` } } : {}),
  });
  return { client, lookup, catalogue };
}
