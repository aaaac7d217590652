/**
 * One lane per ERP endpoint: its budget ledger (in memory, or shared through Redis) and the
 * fair queue in front of it (see ledger.ts for the algorithm), and the upstream built over
 * them. The composition root builds these once: every requester (users, the readiness probe,
 * the start-up check, the catalogue crawl, watches) draws on the same lanes.
 */
import type { Redis } from 'ioredis';
import type { ErpEndpoint } from '../erp/errors.js';
import { credentialTag } from '../erp/schemas.js';
import type { AppLogger } from '../log/logger.js';
import type { BackgroundBudget } from './background.js';
import { BudgetQueue, GroupedLedger } from './fairQueue.js';
import { fairShare, type Ledger, MemoryLedger } from './ledger.js';
import type { Metrics } from './metrics.js';
import type { RedisHealth } from './redis.js';
import { RedisLedger } from './redisLedger.js';
import { type BreakerOptions, type Lane, type RetryOptions, Upstream } from './upstream.js';

/** A slot whose replica died mid-call is freed after this; longer than any ERP call. */
const FLIGHT_BOUND_MS = 60_000;

/** One requester may use all but a sixth of an endpoint's limit within a window. */
const DEFAULT_FAIR_SHARE_RESERVE = 1 / 6;

interface LaneSettings {
  /** Names the budget: replicas on one credential share it (hashed into the Redis key). */
  credentialKey: string;
  /** The ERP's limits per credential; windowMs defaults to a minute (benchmarks compress it). */
  limits: { getPerMinute: number; searchPerMinute: number; windowMs?: number };
  /**
   * The part of each endpoint's limit that one requester may not take within a window, kept
   * for people who have used little (FAIR_SHARE_RESERVE). Default a sixth.
   */
  fairShareReserve?: number;
  /** Longest a caller may wait for budget; a longer expected wait is a BusyError at once. */
  queueMaxWaitMs: number;
  /** Shared mode: the budget in Redis, across replicas. */
  shared?: { redis: Redis; health: RedisHealth; keyPrefix: string } | undefined;
  metrics: Metrics;
  now: () => number;
}

function createLanes(settings: LaneSettings): Record<ErpEndpoint, Lane> {
  const windowMs = settings.limits.windowMs ?? 60_000;
  const credential = credentialTag(settings.credentialKey);
  const lane = (endpoint: ErpEndpoint): Lane => {
    const limit = endpoint.startsWith('search')
      ? settings.limits.searchPerMinute
      : settings.limits.getPerMinute;
    const reserveFraction = settings.fairShareReserve ?? DEFAULT_FAIR_SHARE_RESERVE;
    const share = fairShare(limit, reserveFraction);
    const { shared } = settings;
    const budget: Ledger = shared
      ? new RedisLedger({
          redis: shared.redis,
          health: shared.health,
          key: `${shared.keyPrefix}budget:${credential}:${endpoint}`,
          limit,
          share,
          windowMs,
          flightBoundMs: FLIGHT_BOUND_MS,
          now: settings.now,
        })
      : new MemoryLedger(limit, windowMs, settings.now, share);
    // A workflow step's runs are one requester of the budget, fair among the people they name.
    const ledger = new GroupedLedger(budget, { windowMs, reserveFraction, now: settings.now });
    const queue = new BudgetQueue({
      endpoint,
      ledger,
      maxWaitMs: settings.queueMaxWaitMs,
      metrics: settings.metrics,
      now: settings.now,
    });
    return { ledger, queue };
  };
  return {
    getItem: lane('getItem'),
    getContact: lane('getContact'),
    searchItems: lane('searchItems'),
    searchContact: lane('searchContact'),
  };
}

export interface UpstreamSettings extends LaneSettings {
  retry?: RetryOptions;
  breaker?: BreakerOptions;
  /**
   * Longest one ERP call may take once it has its budget slot (a cockatiel timeout; the call's
   * AbortSignal fires and it counts as a retryable timeout). Default 8000 ms; the app passes
   * ERP_TIMEOUT_MS.
   */
  callTimeoutMs?: number;
  logger: AppLogger;
  /** Jitter source for retry backoff. Default Math.random. */
  random?: () => number;
}

/** The lanes of every endpoint and the policies over them: the one way to the ERP. */
export function createUpstream(settings: UpstreamSettings): Upstream {
  return new Upstream({
    lanes: createLanes(settings),
    retry: settings.retry,
    breaker: settings.breaker,
    callTimeoutMs: settings.callTimeoutMs,
    metrics: settings.metrics,
    logger: settings.logger,
    now: settings.now,
    random: settings.random ?? Math.random,
  });
}

/** The catalogue crawl's name on the searchItems ledger (its share is counted under it). */
const CRAWL_REQUESTER = '(catalogue crawl)';
/** The watch checker's name on the getItem ledger. */
const CHECK_REQUESTER = '(watch checks)';

/** CATALOGUE_CRAWL_SHARE (0..1 of the search limit) as the crawl's background lane. */
export function ledgerCrawlBudget(upstream: Upstream, share: number): BackgroundBudget {
  return upstream.background('searchItems', CRAWL_REQUESTER, share);
}

/** WATCH_SHARE (0..1 of the getItem limit) as the watch checker's background lane. */
export function ledgerCheckBudget(upstream: Upstream, share: number): BackgroundBudget {
  return upstream.background('getItem', CHECK_REQUESTER, share);
}

/** The item card's sell-price search's name on the searchItems ledger (src/catalogue/sellPrice.ts). */
const PRICE_REQUESTER = '(card prices)';

/**
 * A quarter of the search limit at most for cards' sell prices: a person's own search keeps
 * the rest, and the lane's last free slot is always a person's.
 */
export function ledgerPriceBudget(upstream: Upstream, share = 0.25): BackgroundBudget {
  return upstream.background('searchItems', PRICE_REQUESTER, share);
}
