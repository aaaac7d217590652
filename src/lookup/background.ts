/**
 * A requester that works in the background (the catalogue crawl, watches) on one endpoint's
 * lane: one more requester of the same ledger, under its own name, so the ERP never sees more
 * than the limit whoever calls. It differs from a user in three ways:
 * - it holds at most `share` of the limit within a window (the ledger enforces it, across
 *   replicas in Redis mode: no sliding count of its own);
 * - it takes no slot while a user waits in this replica's queue;
 * - it never takes the last free slot: the ledger keeps one for a user who comes along.
 * It never queues, so it never stands ahead of a user: it asks, and is told yes or not now.
 */

import type { BudgetQueue } from './fairQueue.js';
import type { Ledger, Slot } from './ledger.js';

/**
 * What background work (the catalogue crawl on searchItems, watch checks on getItem) sees of
 * its lane: the one port both use, so neither knows the ledger behind it.
 */
export interface BackgroundBudget {
  /** True while a user's lookup waits for this lane's budget: the background holds back. */
  usersWaiting(): boolean;
  /**
   * How long until the next call may be sent (0: now; Infinity: no share). Positive while the
   * share of the window is spent, or while no slot would be left for a user.
   */
  waitMs(): number;
  /**
   * Sends one call on the shared budget (slot, 429 back-off, breaker, retries, timeout);
   * `signal` aborts when the attempt's time is up.
   */
  run<T>(call: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/** How often a waiting background call looks again while users are waiting. */
const POLL_MS = 250;
/** Longest single sleep between looks, so a freed slot is noticed soon enough. */
const MAX_SLEEP_MS = 5_000;

export class BackgroundRequester {
  /** Most slots it may hold within a window: `share` of the limit, 0 when switched off. */
  readonly slots: number;

  constructor(
    private readonly lane: { queue: BudgetQueue; ledger: Ledger },
    readonly name: string,
    share: number,
  ) {
    const { limit } = lane.ledger;
    const wanted = Number.isFinite(share) && share > 0 ? Math.max(1, Math.floor(share * limit)) : 0;
    // Never the whole window: one slot always stays for users.
    this.slots = Math.min(wanted, Math.max(0, limit - 1));
  }

  /** True while a user's call is waiting for this lane's budget: the background holds back. */
  usersWaiting(): boolean {
    return this.lane.queue.usersWaiting();
  }

  /** How long until a `tryAcquire` may succeed (0: now; Infinity: switched off). */
  waitMs(): number {
    if (this.slots === 0) return Number.POSITIVE_INFINITY;
    if (this.usersWaiting()) return POLL_MS;
    const { ledger } = this.lane;
    // The second free slot: one is always left for a user.
    return Math.max(ledger.waitMs(1), ledger.shareWaitMs(this.name, 0, this.slots));
  }

  /**
   * A slot now, or `undefined` (a user waits, the share is spent, or only one slot is free).
   * The caller must `complete` or `cancel` it on the lane's ledger.
   */
  async tryAcquire(): Promise<Slot | undefined> {
    if (this.slots === 0 || this.usersWaiting()) return undefined;
    const result = await this.lane.ledger.tryAcquire(this.name, {
      share: this.slots,
      keepFree: 1,
    });
    return result.granted ? result.slot : undefined;
  }

  /** Waits until `tryAcquire` succeeds; rejects when `signal` aborts or it is switched off. */
  async acquire(signal?: AbortSignal): Promise<Slot> {
    if (this.slots === 0) throw new RangeError(`${this.name}: no share of the budget`);
    for (;;) {
      signal?.throwIfAborted();
      const slot = await this.tryAcquire();
      if (slot) return slot;
      await sleep(Math.min(Math.max(this.waitMs(), 1), MAX_SLEEP_MS), signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
