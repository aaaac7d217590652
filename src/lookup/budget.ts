/**
 * The fair queue in front of one endpoint's budget.
 *
 * Callers wait in one queue per requester (Slack user), served round-robin, so one person's
 * burst (a shortcut over a long message, a script) cannot starve everyone else. Waits are
 * bounded: a call whose expected wait exceeds `maxWaitMs` is refused at once with BusyError,
 * and a call still waiting at its deadline is refused then (the estimate was optimistic).
 */
import type { ErpEndpoint } from '../erp/errors.js';
import type { Ledger, Slot } from './ledger.js';
import type { Metrics } from './metrics.js';
import { BusyError } from './types.js';

interface Waiter {
  requester: string;
  enqueuedAt: number;
  resolve: (slot: Slot) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

export interface BudgetQueueOptions {
  endpoint: ErpEndpoint;
  ledger: Ledger;
  maxWaitMs: number;
  metrics: Metrics;
  now: () => number;
}

const ANONYMOUS = '(anonymous)';

export class BudgetQueue {
  private readonly queues = new Map<string, Waiter[]>();
  /** Requesters with waiting calls, in round-robin order. */
  private ring: string[] = [];
  private turn = 0;
  private pumping = false;
  private pumpAgain = false;
  /** A Redis acquire is on its way: its slot is already counted locally, its waiter queued. */
  private acquiring = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly o: BudgetQueueOptions) {}

  /** Waits for a slot; the caller must `complete` or `cancel` it on the ledger. */
  acquire(requester = ANONYMOUS, signal?: AbortSignal): Promise<Slot> {
    signal?.throwIfAborted();
    const expected = this.expectedWaitMs(requester);
    if (this.closed || expected > this.o.maxWaitMs) return Promise.reject(this.busy(expected));
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = {
        requester,
        enqueuedAt: this.o.now(),
        resolve: (slot) => {
          waiter.cleanup();
          this.o.metrics.budgetWait.observe(
            { endpoint: this.o.endpoint },
            (this.o.now() - waiter.enqueuedAt) / 1000,
          );
          resolve(slot);
        },
        reject: (error) => {
          waiter.cleanup();
          reject(error);
        },
        cleanup: () => {},
      };
      const deadline = setTimeout(() => {
        this.remove(waiter);
        waiter.reject(this.busy(this.expectedWaitMs(requester)));
      }, this.o.maxWaitMs);
      const onAbort = () => {
        this.remove(waiter);
        waiter.reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiter.cleanup = () => {
        clearTimeout(deadline);
        signal?.removeEventListener('abort', onAbort);
      };
      this.enqueue(waiter);
      this.kick();
    });
  }

  /**
   * How long a new call from `requester` would wait now. Round-robin puts it behind at most
   * as many calls of each other requester as the requester already has queued, plus one.
   */
  expectedWaitMs(requester?: string): number {
    const own = requester === undefined ? 0 : (this.queues.get(requester)?.length ?? 0);
    let ahead = own;
    for (const [other, queue] of this.queues) {
      if (requester === undefined || other !== requester) {
        ahead += requester === undefined ? queue.length : Math.min(queue.length, own + 1);
      }
    }
    if (this.acquiring && ahead > 0) ahead -= 1;
    const start = this.o.ledger.startTimes(ahead + 1)[ahead] ?? this.o.now();
    return Math.max(0, start - this.o.now());
  }

  waiting(): number {
    let total = 0;
    for (const queue of this.queues.values()) total += queue.length;
    return total;
  }

  /** Try to hand out slots now (after an enqueue, a cancelled slot or a timer). */
  kick(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    void this.pump();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const queue of this.queues.values()) {
      for (const waiter of queue) waiter.reject(this.busy(0));
    }
    this.queues.clear();
    this.ring = [];
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        while (this.waiting() > 0) {
          // A memory ledger answers synchronously: no await, so no window in which a slot is
          // taken but its waiter still queued (counted twice by expectedWaitMs).
          const pending = this.o.ledger.tryAcquire();
          this.acquiring = pending instanceof Promise;
          const result = pending instanceof Promise ? await pending : pending;
          this.acquiring = false;
          if (!result.granted) {
            this.schedule(result.waitMs);
            break;
          }
          const waiter = this.next();
          if (waiter) waiter.resolve(result.slot);
          else this.o.ledger.cancel(result.slot);
        }
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  private schedule(waitMs: number): void {
    clearTimeout(this.timer);
    // One millisecond late rather than early: a slot frees exactly at its release time.
    this.timer = setTimeout(() => this.kick(), Math.max(1, Math.ceil(waitMs)) + 1);
  }

  private enqueue(waiter: Waiter): void {
    const queue = this.queues.get(waiter.requester);
    if (queue) {
      queue.push(waiter);
      return;
    }
    this.queues.set(waiter.requester, [waiter]);
    // A requester with nothing queued is served next: the others have had their turns.
    if (this.turn >= this.ring.length) this.turn = 0;
    this.ring.splice(this.turn, 0, waiter.requester);
  }

  private next(): Waiter | undefined {
    if (this.ring.length === 0) return undefined;
    if (this.turn >= this.ring.length) this.turn = 0;
    const requester = this.ring[this.turn];
    const queue = requester === undefined ? undefined : this.queues.get(requester);
    const waiter = queue?.shift();
    if (!queue || queue.length === 0) {
      if (requester !== undefined) this.queues.delete(requester);
      this.ring.splice(this.turn, 1);
    } else {
      this.turn += 1;
    }
    return waiter;
  }

  private remove(waiter: Waiter): void {
    const queue = this.queues.get(waiter.requester);
    if (!queue) return;
    const index = queue.indexOf(waiter);
    if (index >= 0) queue.splice(index, 1);
    if (queue.length === 0) {
      this.queues.delete(waiter.requester);
      const at = this.ring.indexOf(waiter.requester);
      if (at >= 0) {
        this.ring.splice(at, 1);
        if (at < this.turn) this.turn -= 1;
      }
    }
  }

  private busy(expectedWaitMs: number): BusyError {
    this.o.metrics.busy.inc({ endpoint: this.o.endpoint });
    return new BusyError(this.o.endpoint, expectedWaitMs);
  }
}
