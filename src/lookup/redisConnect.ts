/**
 * The Redis client for the shared mode, apart from redis.ts so that ioredis (a sizeable
 * module) loads only when REDIS_URL is set.
 *
 * The client fails fast (no offline queue, one retry, a short command timeout) so that a Redis
 * outage never stalls a lookup: the service falls back to its memory cache and memory budget
 * and returns to Redis on its own when the client reconnects (ioredis keeps retrying).
 */
import { Redis } from 'ioredis';
import type { AppLogger } from '../log/logger.js';
import { describeRedisError } from './redis.js';

export function connectRedis(url: string, logger: AppLogger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 2000,
    // Reconnect forever, at most every 2 s: Redis coming back must be noticed.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event;
  // the lookup service logs the outage once through RedisHealth.
  redis.on('error', (error: Error) =>
    logger.debug({ redis: describeRedisError(error) }, 'redis connection error'),
  );
  return redis;
}
