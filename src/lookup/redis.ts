/**
 * Redis for the shared mode: one client for the cache and the budget of every replica.
 *
 * The client fails fast (no offline queue, one retry, a short command timeout) so that a Redis
 * outage never stalls a lookup: the service falls back to its memory cache and memory budget
 * and returns to Redis on its own when the client reconnects (ioredis keeps retrying).
 */
import { Redis } from 'ioredis';
import type { AppLogger } from '../log/logger.js';

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
  redis.on('error', (error: Error) => logger.debug({ err: error }, 'redis connection error'));
  return redis;
}

/**
 * Whether Redis can be used right now, with one warning when it goes away and one info line
 * when it is back (not one line per failed command).
 */
export class RedisHealth {
  private up = true;
  private readonly onReady = () => this.succeeded();
  private readonly onClose = () => this.failed(new Error('connection closed'));

  constructor(
    readonly redis: Redis,
    private readonly logger: AppLogger,
  ) {
    redis.on('ready', this.onReady);
    redis.on('close', this.onClose);
  }

  usable(): boolean {
    if (this.redis.status !== 'ready') {
      this.failed(new Error(`redis status ${this.redis.status}`));
      return false;
    }
    return true;
  }

  failed(error: unknown): void {
    if (!this.up) return;
    this.up = false;
    this.logger.warn(
      { err: error },
      'Redis unreachable: serving from the memory cache and the memory rate budget',
    );
  }

  succeeded(): void {
    if (this.up) return;
    this.up = true;
    this.logger.info('Redis is back: shared cache and rate budget in use again');
  }

  dispose(): void {
    this.redis.off('ready', this.onReady);
    this.redis.off('close', this.onClose);
  }
}
