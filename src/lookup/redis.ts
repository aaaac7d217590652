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
 *
 * The client's first connect is not an outage: until Redis was once ready, a lookup simply
 * uses memory without a word; only a first connect that fails (the client's `error` event
 * before it was ever ready) is reported. The lines carry the error's code and message, never
 * its stack: Redis being away is an expected condition.
 */
export class RedisHealth {
  /** `connecting`: never ready yet, nothing said. */
  private state: 'connecting' | 'up' | 'down' = 'connecting';
  private readonly onReady = () => this.succeeded();
  private readonly onClose = () => {
    if (this.state === 'up') this.failed(new Error('connection closed'));
  };
  private readonly onError = (error: Error) => {
    if (this.state === 'connecting') this.failed(error);
  };

  constructor(
    readonly redis: Redis,
    private readonly logger: AppLogger,
  ) {
    redis.on('ready', this.onReady);
    redis.on('close', this.onClose);
    redis.on('error', this.onError);
    if (redis.status === 'ready') this.state = 'up';
  }

  usable(): boolean {
    if (this.redis.status === 'ready') return true;
    if (this.state === 'up') this.failed(new Error(`redis status ${this.redis.status}`));
    return false;
  }

  failed(error: unknown): void {
    if (this.state === 'down') return;
    const atStart = this.state === 'connecting';
    this.state = 'down';
    this.logger.warn(
      { redis: describeRedisError(error) },
      atStart
        ? 'Redis unreachable at start: serving from the memory cache and the memory rate budget until it answers'
        : 'Redis unreachable: serving from the memory cache and the memory rate budget',
    );
  }

  succeeded(): void {
    if (this.state === 'up') return;
    const wasDown = this.state === 'down';
    this.state = 'up';
    if (wasDown) this.logger.info('Redis is back: shared cache and rate budget in use again');
    else this.logger.info('Redis connected: shared cache and rate budget in use');
  }

  dispose(): void {
    this.redis.off('ready', this.onReady);
    this.redis.off('close', this.onClose);
    this.redis.off('error', this.onError);
  }
}

/** An error's code and message for the log: no stack, and no URL (it may hold a password). */
export function describeRedisError(error: unknown): { code?: string; message: string } {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = Reflect.get(error, 'code');
  const message = error.message.replace(/rediss?:\/\/\S*/g, 'redis://…');
  return typeof code === 'string' ? { code, message } : { message };
}
