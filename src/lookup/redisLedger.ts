/**
 * The budget shared by every replica through Redis: the same slot ledger as MemoryLedger, as
 * a sorted set (member = slot id, score = release time) changed only by Lua scripts, so that
 * checking and taking a slot is atomic across replicas. Times come from Redis's own clock
 * (`TIME`), so replicas with skewed clocks still agree.
 *
 * Insurance: every slot is also recorded in this replica's MemoryLedger. While Redis is
 * unreachable the memory ledger alone decides (one warning, see RedisHealth), and after Redis
 * returns, the slots taken during the outage still count locally until their window has passed.
 *
 * Fair share across replicas: each requester also has a sorted set of its own slots, checked
 * and taken in the same script, so one user's burst spread over replicas still stops at its
 * share. Wait estimates use the last refusal's snapshot (sorted once, then indexed: O(log n)).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { MAX_RETRY_AFTER_MS } from '../erp/errors.js';
import {
  type Acquired,
  type AcquireTerms,
  type Ledger,
  MemoryLedger,
  projectStart,
  reserveGrace,
  type Slot,
  waitFrom,
} from './ledger.js';
import type { RedisHealth } from './redis.js';

/** Replies: {1, now} granted; {0, now, blockedMs, scores...} budget; {2, now, 0, scores...} share. */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local blocked = redis.call('PTTL', KEYS[2])
-- A pause longer than the app ever takes (written by an older version) is cut to that.
if blocked > tonumber(ARGV[7]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[7])
  blocked = tonumber(ARGV[7])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local function refuse(code, key, blockedMs)
  local out = {code, now, blockedMs}
  local held = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
  for i = 2, #held, 2 do out[#out + 1] = held[i] end
  return out
end
if blocked > 0 or redis.call('ZCARD', KEYS[1]) + tonumber(ARGV[6]) >= tonumber(ARGV[1]) then
  return refuse(0, KEYS[1], math.max(blocked, 0))
end
local own = redis.call('ZCARD', KEYS[3])
if own >= tonumber(ARGV[5]) then
  return refuse(2, KEYS[3], 0)
end
-- The graded reserve (ledger.ts): past its first ARGV[9] slots, a requester leaves as many
-- free as it holds, up to the reserve.
local keep = math.max(0, math.min(own - tonumber(ARGV[9]), tonumber(ARGV[8])))
if redis.call('ZCARD', KEYS[1]) + keep >= tonumber(ARGV[1]) then
  return refuse(2, KEYS[1], 0)
end
local hold = tonumber(ARGV[2]) + tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now + hold, ARGV[4])
redis.call('PEXPIRE', KEYS[1], hold)
redis.call('ZADD', KEYS[3], now + hold, ARGV[4])
redis.call('PEXPIRE', KEYS[3], hold)
return {1, now}
`;

/** A pause is only ever lengthened: another replica's shorter 429 never cuts it short. */
const BLOCK = `
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
end
return 1
`;

const RELEASE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('ZADD', KEYS[2], 'XX', now + tonumber(ARGV[1]), ARGV[2])
return 1
`;

interface Snapshot {
  takenAt: number;
  /** Release times in this replica's clock, ascending. */
  releases: number[];
  blockedUntil: number;
}

interface RedisLedgerOptions {
  redis: Redis;
  health: RedisHealth;
  key: string;
  limit: number;
  /** Most slots one requester may hold within a window, across all replicas. */
  share: number;
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
  readonly limit: number;
  readonly share: number;
  private snapshot: Snapshot | undefined;

  constructor(private readonly options: RedisLedgerOptions) {
    this.local = new MemoryLedger(options.limit, options.windowMs, options.now, options.share);
    this.limit = this.local.limit;
    this.share = this.local.share;
  }

  async tryAcquire(requester: string, terms: AcquireTerms = {}): Promise<Acquired> {
    const local = this.local.tryAcquire(requester, terms);
    if (!local.granted || !this.options.health.usable()) return local;
    try {
      const reply: unknown = await this.options.redis.eval(
        ACQUIRE,
        3,
        this.options.key,
        `${this.options.key}:blocked`,
        this.requesterKey(requester),
        this.limit,
        this.options.windowMs,
        this.options.flightBoundMs,
        local.slot.id,
        this.local.shareFor(terms.share),
        Math.max(0, terms.keepFree ?? 0),
        MAX_RETRY_AFTER_MS,
        this.limit - this.share,
        reserveGrace(this.limit),
      );
      this.options.health.succeeded();
      const [code, serverNow, blockedMs, ...scores] = Array.isArray(reply) ? reply.map(Number) : [];
      if (code === 1) return local;
      this.local.cancel(local.slot);
      const snapshot = this.toSnapshot(serverNow ?? 0, blockedMs ?? 0, scores);
      const now = this.options.now();
      if (code === 2) {
        const first = snapshot.releases[0] ?? now + this.options.windowMs;
        return { granted: false, waitMs: Math.max(1, first - now), refusal: 'share' };
      }
      this.snapshot = snapshot;
      return { granted: false, waitMs: Math.max(1, this.startAt(0) - now), refusal: 'budget' };
    } catch (error) {
      // Redis failed mid-run: the memory ledger's grant stands (insurance).
      this.options.health.failed(error);
      return local;
    }
  }

  complete(slot: Slot): void {
    this.local.complete(slot);
    this.whenUsable((redis) =>
      redis.eval(
        RELEASE,
        2,
        this.options.key,
        this.requesterKey(slot.requester),
        this.options.windowMs,
        slot.id,
      ),
    );
  }

  cancel(slot: Slot): void {
    this.local.cancel(slot);
    this.whenUsable((redis) =>
      redis
        .multi()
        .zrem(this.options.key, slot.id)
        .zrem(this.requesterKey(slot.requester), slot.id)
        .exec(),
    );
  }

  block(ms: number): void {
    this.local.block(ms);
    this.whenUsable((redis) =>
      redis.eval(
        BLOCK,
        1,
        `${this.options.key}:blocked`,
        Math.max(1, Math.ceil(Math.min(ms, MAX_RETRY_AFTER_MS))),
      ),
    );
  }

  heldBy(requester: string): number {
    return this.local.heldBy(requester);
  }

  /** Its share across replicas is Redis's to enforce; the estimate is this replica's. */
  shareWaitMs(requester: string, ownAhead: number, share?: number): number {
    return this.local.shareWaitMs(requester, ownAhead, share);
  }

  windowTurnsAt(): number {
    return this.local.windowTurnsAt();
  }

  waitMs(ahead: number): number {
    return waitFrom(this.startAt(ahead), this.options.now);
  }

  /** The later of this replica's estimate and the last refusal's snapshot of every replica's. */
  private startAt(ahead: number): number {
    const local = this.local.startAt(ahead);
    const snap = this.snapshot;
    const now = this.options.now();
    if (!snap || now - snap.takenAt > this.options.windowMs) return local;
    const first = firstAfter(snap.releases, now);
    const shared = projectStart(
      {
        now,
        limit: this.limit,
        held: snap.releases.length - first,
        releaseAt: (k) => snap.releases[first + k] ?? now,
        cycleMs: this.options.windowMs + this.local.estimatedLatencyMs(),
        blockedUntil: snap.blockedUntil,
      },
      ahead,
    );
    return Math.max(shared, local);
  }

  /** Release times in this replica's clock; calls still in flight get an estimated release. */
  private toSnapshot(serverNow: number, blockedMs: number, scores: number[]): Snapshot {
    const takenAt = this.options.now();
    const inFlightAfter = serverNow + this.options.windowMs;
    const releases = scores
      .map((score) =>
        score > inFlightAfter
          ? score - this.options.flightBoundMs + this.local.estimatedLatencyMs()
          : score,
      )
      .map((score) => score - serverNow + takenAt)
      .sort((a, b) => a - b);
    return { takenAt, releases, blockedUntil: takenAt + blockedMs };
  }

  /** Hashed: the key names no Slack user. */
  private requesterKey(requester: string): string {
    const hashed = createHash('sha256').update(requester).digest('hex').slice(0, 16);
    return `${this.options.key}:by:${hashed}`;
  }

  private whenUsable(command: (redis: Redis) => Promise<unknown>): void {
    if (!this.options.health.usable()) return;
    command(this.options.redis).then(
      () => this.options.health.succeeded(),
      (error: unknown) => this.options.health.failed(error),
    );
  }
}

/** Index of the first release after `now` (binary search over the sorted snapshot). */
function firstAfter(releases: readonly number[], now: number): number {
  let low = 0;
  let high = releases.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((releases[mid] ?? Number.POSITIVE_INFINITY) <= now) low = mid + 1;
    else high = mid;
  }
  return low;
}
