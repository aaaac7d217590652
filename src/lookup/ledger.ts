/**
 * The rate budget for one credential and endpoint: a ledger of call slots.
 *
 * Why not a fixed-window counter (rate-limiter-flexible's RateLimiterMemory/Redis): the ERP
 * does not say how its minute is measured. A fixed window lets 2x the limit through across a
 * window boundary, which a sliding window upstream answers with 429s. This ledger instead
 * guarantees at most `limit` calls in ANY `windowMs` span as the ERP sees them: a slot is
 * taken when a call is sent and released only `windowMs` after its response arrived (the ERP
 * received the request somewhere between the two), so a fixed, sliding or token-bucket
 * limiter upstream never sees more than `limit` per window. The cost is one round trip per
 * slot per window (about 2% of the budget at 40 ms and a 2 s window; under 0.1% per minute).
 */
export interface Slot {
  readonly id: string;
  readonly sentAt: number;
}

export type Acquired = { granted: true; slot: Slot } | { granted: false; waitMs: number };

export interface Ledger {
  tryAcquire(): Acquired | Promise<Acquired>;
  /** The call has its response (or failed after reaching the ERP): hold the slot one more window. */
  complete(slot: Slot): void;
  /** No call was made with this slot: free it at once. */
  cancel(slot: Slot): void;
  /** After a 429: send nothing on this budget for `ms`. */
  block(ms: number): void;
  /** Estimated start times (absolute ms) of the next `count` calls that would queue now. */
  startTimes(count: number): number[];
}

interface Hold {
  sentAt: number;
  /** Undefined while the call is in flight. */
  releaseAt: number | undefined;
}

let slotCounter = 0;
export function newSlotId(): string {
  slotCounter += 1;
  return `${process.pid}-${Date.now().toString(36)}-${slotCounter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The in-process ledger: the whole budget in memory mode, this replica's share in Redis mode. */
export class MemoryLedger implements Ledger {
  private readonly holds = new Map<string, Hold>();
  private blockedUntil = 0;
  /** A running estimate of the ERP's response time, for wait estimates only. */
  private latencyMs = 100;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  tryAcquire(): Acquired {
    const now = this.now();
    this.prune(now);
    if (now < this.blockedUntil) return { granted: false, waitMs: this.blockedUntil - now };
    if (this.holds.size < this.limit) {
      const slot = { id: newSlotId(), sentAt: now };
      this.holds.set(slot.id, { sentAt: now, releaseAt: undefined });
      return { granted: true, slot };
    }
    return { granted: false, waitMs: Math.max(1, (this.releaseEstimates()[0] ?? now) - now) };
  }

  /** Adds a slot granted elsewhere (Redis) to this replica's ledger, ignoring the local limit. */
  record(slot: Slot): void {
    this.holds.set(slot.id, { sentAt: slot.sentAt, releaseAt: undefined });
  }

  complete(slot: Slot): void {
    const hold = this.holds.get(slot.id);
    if (!hold) return;
    const now = this.now();
    this.latencyMs = 0.8 * this.latencyMs + 0.2 * Math.max(0, now - hold.sentAt);
    hold.releaseAt = now + this.windowMs;
  }

  cancel(slot: Slot): void {
    this.holds.delete(slot.id);
  }

  block(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
  }

  /** Calls in flight or held: the share of the budget this replica is using now. */
  held(): number {
    this.prune(this.now());
    return this.holds.size;
  }

  estimatedLatencyMs(): number {
    return this.latencyMs;
  }

  startTimes(count: number): number[] {
    const now = this.now();
    this.prune(now);
    return projectStarts({
      now,
      limit: this.limit,
      releases: this.releaseEstimates(),
      cycleMs: this.windowMs + this.latencyMs,
      blockedUntil: this.blockedUntil,
      count,
    });
  }

  private releaseEstimates(): number[] {
    const estimates: number[] = [];
    for (const hold of this.holds.values()) {
      estimates.push(hold.releaseAt ?? hold.sentAt + this.latencyMs + this.windowMs);
    }
    return estimates.sort((a, b) => a - b);
  }

  private prune(now: number): void {
    for (const [id, hold] of this.holds) {
      if (hold.releaseAt !== undefined && hold.releaseAt <= now) this.holds.delete(id);
    }
  }
}

export interface Projection {
  now: number;
  limit: number;
  /** Estimated release times of the slots held now, ascending. */
  releases: readonly number[];
  /** How long a slot stays taken once used: the window plus a response time. */
  cycleMs: number;
  blockedUntil: number;
  count: number;
}

/**
 * When would the next `count` queued calls start? Free slots start now; then each held slot
 * frees at its release time, and every slot can be reused once per cycle.
 */
export function projectStarts(p: Projection): number[] {
  const free = Math.max(0, p.limit - p.releases.length);
  const firstRound = [
    ...Array.from({ length: free }, () => p.now),
    ...p.releases.slice(0, p.limit),
  ];
  const starts: number[] = [];
  for (let i = 0; i < p.count; i += 1) {
    const base = firstRound[i % p.limit] ?? p.now;
    const start = Math.max(base, p.now) + Math.floor(i / p.limit) * p.cycleMs;
    starts.push(Math.max(start, p.blockedUntil));
  }
  return starts;
}
