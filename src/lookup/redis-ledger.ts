/**
 * The budget shared by every replica through Redis: the same slot ledger as MemoryLedger, as
 * a sorted set (member = slot id, score = release time) changed only by Lua scripts, so that
 * checking and taking a slot is atomic across replicas. Times come from Redis's own clock
 * (`TIME`), so replicas with skewed clocks still agree.
 *
 * Insurance: every slot is also recorded in this replica's MemoryLedger. While Redis is
 * unreachable the memory ledger alone decides (one warning, see RedisHealth), and after Redis
 * returns, the slots taken during the outage still count locally until their window has passed.
 */
import type { Redis } from 'ioredis';
import { type Acquired, type Ledger, MemoryLedger, projectStarts, type Slot } from './ledger.js';
import type { RedisHealth } from './redis.js';

const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local blocked = redis.call('PTTL', KEYS[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
if blocked <= 0 and #held / 2 < tonumber(ARGV[1]) then
  local hold = tonumber(ARGV[2]) + tonumber(ARGV[3])
  redis.call('ZADD', KEYS[1], now + hold, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], hold)
  return {1, now, 0}
end
local out = {0, now, math.max(blocked, 0)}
for i = 2, #held, 2 do out[#out + 1] = held[i] end
return out
`;

const RELEASE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
return 1
`;

interface Snapshot {
  takenAt: number;
  releases: number[];
  blockedUntil: number;
}

export interface RedisLedgerOptions {
  redis: Redis;
  health: RedisHealth;
  key: string;
  limit: number;
  windowMs: number;
  /**
   * How long a slot stays taken if its replica dies mid-call (the release never comes):
   * longer than any ERP call can last.
   */
  flightBoundMs: number;
  now: () => number;
}

export class RedisLedger implements Ledger {
  readonly local: MemoryLedger;
  private snapshot: Snapshot | undefined;

  constructor(private readonly o: RedisLedgerOptions) {
    this.local = new MemoryLedger(o.limit, o.windowMs, o.now);
  }

  async tryAcquire(): Promise<Acquired> {
    const local = this.local.tryAcquire();
    if (!local.granted || !this.o.health.usable()) return local;
    try {
      const reply = await this.o.redis.eval(
        ACQUIRE,
        2,
        this.o.key,
        `${this.o.key}:blocked`,
        this.o.limit,
        this.o.windowMs,
        this.o.flightBoundMs,
        local.slot.id,
      );
      this.o.health.succeeded();
      const [granted, serverNow, blockedMs, ...releases] = (reply as (number | string)[]).map(
        Number,
      );
      if (granted === 1) return local;
      this.local.cancel(local.slot);
      this.snapshot = this.toSnapshot(serverNow ?? 0, blockedMs ?? 0, releases);
      const next = this.startTimes(1)[0] ?? this.o.now();
      return { granted: false, waitMs: Math.max(1, next - this.o.now()) };
    } catch (error) {
      // Redis failed mid-run: the memory ledger's grant stands (insurance).
      this.o.health.failed(error);
      return local;
    }
  }

  complete(slot: Slot): void {
    this.local.complete(slot);
    this.whenUsable((redis) => redis.eval(RELEASE, 1, this.o.key, this.o.windowMs, slot.id));
  }

  cancel(slot: Slot): void {
    this.local.cancel(slot);
    this.whenUsable((redis) => redis.zrem(this.o.key, slot.id));
  }

  block(ms: number): void {
    this.local.block(ms);
    this.whenUsable((redis) => redis.set(`${this.o.key}:blocked`, '1', 'PX', Math.ceil(ms)));
  }

  startTimes(count: number): number[] {
    const local = this.local.startTimes(count);
    const snap = this.snapshot;
    const now = this.o.now();
    if (!snap || now - snap.takenAt > this.o.windowMs) return local;
    const shared = projectStarts({
      now,
      limit: this.o.limit,
      releases: snap.releases.filter((release) => release > now),
      cycleMs: this.o.windowMs + this.local.estimatedLatencyMs(),
      blockedUntil: snap.blockedUntil,
      count,
    });
    return shared.map((start, i) => Math.max(start, local[i] ?? start));
  }

  /** Release times in this replica's clock; calls still in flight get an estimated release. */
  private toSnapshot(serverNow: number, blockedMs: number, scores: number[]): Snapshot {
    const takenAt = this.o.now();
    const inFlightAfter = serverNow + this.o.windowMs;
    const releases = scores
      .map((score) =>
        score > inFlightAfter
          ? score - this.o.flightBoundMs + this.local.estimatedLatencyMs()
          : score,
      )
      .map((score) => score - serverNow + takenAt)
      .sort((a, b) => a - b);
    return { takenAt, releases, blockedUntil: takenAt + blockedMs };
  }

  private whenUsable(command: (redis: Redis) => Promise<unknown>): void {
    if (!this.o.health.usable()) return;
    command(this.o.redis).then(
      () => this.o.health.succeeded(),
      (error: unknown) => this.o.health.failed(error),
    );
  }
}
