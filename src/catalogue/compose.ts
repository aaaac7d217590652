/**
 * Wiring for the catalogue, kept out of the composition root: the index and its crawl over
 * the lookup service's budget, what people's lookups teach it, and what the Slack listeners
 * get from it.
 */
import type { Redis } from 'ioredis';
import type { AppConfig } from '../config/config.js';
import { credentialTag, type ErpApi } from '../erp/schemas.js';
import type { AppLogger } from '../log/logger.js';
import { budgetStatus, type ErpStatus } from '../lookup/budgetStatus.js';
import { ledgerCrawlBudget, ledgerPriceBudget } from '../lookup/lanes.js';
import type { Metrics } from '../lookup/metrics.js';
import type { LookupService } from '../lookup/types.js';
import type { Upstream } from '../lookup/upstream.js';
import { Catalogue } from './catalogue.js';
import { createRecentLookups, type RecentLookups } from './recent.js';
import { type SellPriceOf, sellPriceLookup } from './sellPrice.js';
import type { CatalogueStore } from './store.js';

function catalogueRedisPrefix(erp: ErpApi): string {
  const credential = credentialTag(erp.credentialKey);
  return `erp-lookups:catalogue:${credential}:`;
}

/** The catalogue index and its crawl; the crawl starts a minute after start-up. */
export function createCatalogue(
  config: AppConfig,
  parts: {
    erp: ErpApi;
    lookup: LookupService;
    /** The budget lanes the crawl draws on, as one more requester. */
    upstream: Upstream;
    store: CatalogueStore;
    redis: Redis | undefined;
    logger: AppLogger;
    metrics: Metrics;
  },
): Catalogue {
  const budget =
    config.catalogue.crawlShare > 0
      ? ledgerCrawlBudget(parts.upstream, config.catalogue.crawlShare)
      : undefined;
  const catalogue = new Catalogue({
    lookup: parts.lookup,
    erp: parts.erp,
    budget,
    store: parts.store,
    logger: parts.logger,
    registry: parts.metrics.registry,
    refreshMs: config.catalogue.refreshMinutes * 60_000,
    coverMs: config.cache.ttlSeconds * 1000,
    file: config.catalogue.file,
    redis: parts.redis && { client: parts.redis, prefix: catalogueRedisPrefix(parts.erp) },
    startDelayMs: 60_000,
  });
  void catalogue.loadFile().then(() => catalogue.start());
  return catalogue;
}

/** The listeners' catalogue parts: the index, recent lookups, and the ERP's status for Home. */
export function catalogueDeps(
  config: AppConfig,
  parts: { catalogue: Catalogue; erp: ErpApi; upstream: Upstream; redis: Redis | undefined },
): {
  catalogue: Catalogue;
  recent: RecentLookups;
  erpStatus: () => ErpStatus;
  sellPrice: SellPriceOf;
} {
  const { redis } = parts;
  return {
    catalogue: parts.catalogue,
    // A card's sell price where the index has none: one search when the lane has room.
    sellPrice: sellPriceLookup(parts.erp, ledgerPriceBudget(parts.upstream)),
    recent: createRecentLookups(
      redis && { client: redis, prefix: catalogueRedisPrefix(parts.erp) },
    ),
    erpStatus: () => ({
      sandbox: config.erp.kind === 'sandbox',
      ...budgetStatus(parts.upstream),
    }),
  };
}
