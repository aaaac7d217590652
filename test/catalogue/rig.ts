/**
 * One replica's lookup side for crawl tests: an ERP client on the sandbox, the lookup service
 * feeding `store`, and the crawl's budget adapter over its ledger (memory, or Redis).
 */
import type { Redis } from 'ioredis';
import type { CrawlBudget } from '../../src/catalogue/budget.js';
import { catalogueFeed } from '../../src/catalogue/observe.js';
import type { CatalogueStore } from '../../src/catalogue/store.js';
import { ErpClient } from '../../src/erp/client.js';
import { ledgerCrawlBudget } from '../../src/lookup/crawl-budget.js';
import { createMetrics } from '../../src/lookup/metrics.js';
import { budgetAccessOf, createLookupService } from '../../src/lookup/service.js';
import type { LookupService } from '../../src/lookup/types.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { silentLogger } from '../lookup/fakes.js';

export interface LookupSide {
  client: ErpClient;
  lookup: LookupService;
  budget: CrawlBudget;
}

export function lookupSide(o: {
  sandbox: RunningSandbox;
  store: CatalogueStore;
  windowMs: number;
  searchLimit: number;
  redis?: Redis;
  keyPrefix?: string;
}): LookupSide {
  const client = new ErpClient({
    baseUrl: o.sandbox.url,
    ...o.sandbox.credentials,
    timeoutMs: 5_000,
  });
  const lookup = createLookupService({
    erp: catalogueFeed(client, o.store, Date.now),
    ttlMs: 60_000,
    contactTtlMs: 30_000,
    maxBytes: 8 * 1024 * 1024,
    limits: { getPerMinute: 60, searchPerMinute: o.searchLimit, windowMs: o.windowMs },
    queueMaxWaitMs: 5_000,
    redis: o.redis,
    keyPrefix: o.keyPrefix,
    logger: silentLogger,
    metrics: createMetrics(),
  });
  const access = budgetAccessOf(lookup);
  if (!access) throw new Error('expected the cached lookup service');
  const budget = ledgerCrawlBudget({
    access,
    share: 0.25,
    limit: o.searchLimit,
    windowMs: o.windowMs,
  });
  return { client, lookup, budget };
}
