/**
 * One lane per ERP endpoint: its budget ledger (in memory, or shared through Redis) and the
 * fair queue in front of it (see ledger.ts for the algorithm).
 */
import type { Redis } from 'ioredis';
import { credentialTag } from '../erp/api.js';
import type { ErpEndpoint } from '../erp/errors.js';
import { BudgetQueue } from './budget.js';
import { fairShare, type Ledger, MemoryLedger } from './ledger.js';
import type { Metrics } from './metrics.js';
import type { RedisHealth } from './redis.js';
import { RedisLedger } from './redis-ledger.js';
import type { Lane } from './upstream.js';

/** A slot whose replica died mid-call is freed after this; longer than any ERP call. */
const FLIGHT_BOUND_MS = 60_000;

export interface LaneSettings {
  /** Names the budget: replicas on one credential share it (hashed into the Redis key). */
  credentialKey: string;
  limits: { getPerMinute: number; searchPerMinute: number; windowMs?: number };
  fairShareReserve: number;
  queueMaxWaitMs: number;
  shared: { redis: Redis; health: RedisHealth; keyPrefix: string } | undefined;
  metrics: Metrics;
  now: () => number;
}

export function createLanes(settings: LaneSettings): Record<ErpEndpoint, Lane> {
  const windowMs = settings.limits.windowMs ?? 60_000;
  const credential = credentialTag(settings.credentialKey);
  const lane = (endpoint: ErpEndpoint): Lane => {
    const limit = endpoint.startsWith('search')
      ? settings.limits.searchPerMinute
      : settings.limits.getPerMinute;
    const share = fairShare(limit, settings.fairShareReserve);
    const { shared } = settings;
    const ledger: Ledger = shared
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
