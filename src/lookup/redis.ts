/**
 * Redis for the shared mode: one client (redisConnect.ts) for the cache and the budget of
 * every replica, and how its health is watched.
 */
// Types only: ioredis itself loads in redisConnect.ts, only when REDIS_URL is set.
import type { Redis } from 'ioredis';
import type { AppLogger } from '../log/logger.js';

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
