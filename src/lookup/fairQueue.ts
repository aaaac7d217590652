/**
 * The fair queue in front of one endpoint's budget (the algorithm is described in ledger.ts).
 *
 * Callers wait in one queue per requester (Slack user), served round-robin; a requester that
 * has used its fair share of the window is skipped until one of its own slots frees, so the
 * reserve goes to the others. Waits are bounded: a call whose expected wait exceeds
 * `maxWaitMs` is refused at once with BusyError, and a call still waiting at its deadline is
 * refused then (the estimate was optimistic).
 *
 * Background requesters (the catalogue crawl, watches) never wait here: they ask the ledger
 * directly, only while no user waits (background.ts). A requester that stands for many people
 * (a Workflow Builder step's runs) is one requester here, fair among its members (below).
 */
import type { ErpEndpoint } from '../erp/errors.js';
import {
  type Acquired,
  type AcquireTerms,
  fairShare,
  type Ledger,
  MemoryLedger,
  type Slot,
} from './ledger.js';
import type { Metrics } from './metrics.js';
import { BusyError, type QueuePosition } from './types.js';

interface Waiter {
  requester: string;
  enqueuedAt: number;
  resolve: (slot: Slot) => void;
  reject: (error: unknown) => void;
  cleanup: () => void;
}

interface BudgetQueueOptions {
  endpoint: ErpEndpoint;
  ledger: Ledger;
  maxWaitMs: number;
  metrics: Metrics;
  now: () => number;
}

const ANONYMOUS = '(anonymous)';
/** Timers fire late under load: a call admitted at the bound still gets its turn. */
const DEADLINE_GRACE_MS = 1_000;

export class BudgetQueue {
  private readonly queues = new Map<string, Waiter[]>();
  /** Requesters with waiting calls, in round-robin order. */
  private ring: string[] = [];
  private turn = 0;
  private waitingCount = 0;
  private pumping = false;
  private pumpAgain = false;
  /** A Redis acquire is on its way: its slot is already counted locally, its waiter queued. */
  private acquiring = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: BudgetQueueOptions) {}

  /** Waits for a slot; the caller must `complete` or `cancel` it on the ledger. */
  acquire(requester = ANONYMOUS, signal?: AbortSignal, cause?: unknown): Promise<Slot> {
    signal?.throwIfAborted();
    const expected = this.position(requester).waitMs;
    if (this.closed || expected > this.options.maxWaitMs) {
      return Promise.reject(this.busy(expected, cause));
    }
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = {
        requester,
        enqueuedAt: this.options.now(),
        resolve: (slot) => {
          waiter.cleanup();
          this.options.metrics.budgetWait.observe(
            { endpoint: this.options.endpoint },
            (this.options.now() - waiter.enqueuedAt) / 1000,
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
        waiter.reject(this.busy(this.position(requester).waitMs, cause));
      }, this.options.maxWaitMs + DEADLINE_GRACE_MS);
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

  usersWaiting(): boolean {
    return this.waitingCount > 0;
  }

  /** How long a new call would wait now (any requester's view when none is given). */
  expectedWaitMs(requester?: string): number {
    return this.position(requester ?? ANONYMOUS).waitMs;
  }

  /**
   * Where a new call from `requester` would stand. Round-robin puts it behind at most as many
   * calls of each other requester as it already has queued, plus one, and only behind those
   * others can send before their own share runs out; its own share may hold it back further.
   * O(requesters waiting), each step O(1).
   */
  position(requester: string): QueuePosition {
    const { ledger } = this.options;
    const ownAhead = this.queues.get(requester)?.length ?? 0;
    let ahead = ownAhead;
    for (const [other, queue] of this.queues) {
      if (other === requester) continue;
      const room = Math.max(0, ledger.share - ledger.heldBy(other));
      ahead += Math.min(queue.length, ownAhead + 1, room);
    }
    if (this.acquiring && ahead > 0) ahead -= 1;
    const waitMs = Math.max(ledger.waitMs(ahead), ledger.shareWaitMs(requester, ownAhead));
    return { ownAhead, waitMs };
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
    this.waitingCount = 0;
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        await this.serveRound();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  /** Hands out slots round-robin until the budget is out or every waiter is at its share. */
  private async serveRound(): Promise<void> {
    /** Requesters at their share in this round, with the wait until one of theirs frees. */
    const capped = new Map<string, number>();
    while (this.waitingCount > 0) {
      const requester = this.nextRequester(capped);
      if (requester === undefined) {
        if (capped.size > 0) this.schedule(Math.min(...capped.values()));
        return;
      }
      // A memory ledger answers synchronously: no await, so no window in which a slot is
      // taken but its waiter still queued (counted twice by position()).
      const pending = this.options.ledger.tryAcquire(requester);
      this.acquiring = pending instanceof Promise;
      const result = pending instanceof Promise ? await pending : pending;
      this.acquiring = false;
      if (result.granted) {
        const waiter = this.take(requester);
        if (waiter) waiter.resolve(result.slot);
        else this.options.ledger.cancel(result.slot);
      } else if (result.refusal === 'share') {
        capped.set(requester, result.waitMs);
      } else {
        this.schedule(result.waitMs);
        return;
      }
    }
  }

  private schedule(waitMs: number): void {
    clearTimeout(this.timer);
    // One millisecond late rather than early: a slot frees exactly at its release time.
    this.timer = setTimeout(() => this.kick(), Math.max(1, Math.ceil(waitMs)) + 1);
  }

  private enqueue(waiter: Waiter): void {
    this.waitingCount += 1;
    const queue = this.queues.get(waiter.requester);
    if (queue) {
      queue.push(waiter);
      return;
    }
    this.queues.set(waiter.requester, [waiter]);
    // A newcomer joins at the end of the round, behind every requester already waiting: a
    // stream of newcomers never keeps one who waits from its turn.
    if (this.turn >= this.ring.length) this.turn = 0;
    this.ring.splice(this.turn, 0, waiter.requester);
    this.turn += 1;
  }

  /** The requester whose turn it is, skipping those at their share this round. */
  private nextRequester(capped: ReadonlyMap<string, number>): string | undefined {
    for (let step = 0; step < this.ring.length; step += 1) {
      if (this.turn >= this.ring.length) this.turn = 0;
      const requester = this.ring[this.turn];
      if (requester !== undefined && !capped.has(requester)) return requester;
      this.turn += 1;
    }
    return undefined;
  }

  /** Takes `requester`'s oldest waiter and moves the turn on. */
  private take(requester: string): Waiter | undefined {
    const queue = this.queues.get(requester);
    const waiter = queue?.shift();
    if (!waiter) return undefined;
    this.waitingCount -= 1;
    const at = this.ring.indexOf(requester);
    if (queue && queue.length === 0) {
      this.queues.delete(requester);
      if (at >= 0) this.ring.splice(at, 1);
      if (at >= 0 && at < this.turn) this.turn -= 1;
    } else if (at >= 0) {
      this.turn = at + 1;
    }
    return waiter;
  }

  private remove(waiter: Waiter): void {
    const queue = this.queues.get(waiter.requester);
    if (!queue) return;
    const index = queue.indexOf(waiter);
    if (index < 0) return;
    queue.splice(index, 1);
    this.waitingCount -= 1;
    if (queue.length === 0) {
      this.queues.delete(waiter.requester);
      const at = this.ring.indexOf(waiter.requester);
      if (at >= 0) {
        this.ring.splice(at, 1);
        if (at < this.turn) this.turn -= 1;
      }
    }
  }

  private busy(expectedWaitMs: number, cause?: unknown): BusyError {
    this.options.metrics.busy.inc({ endpoint: this.options.endpoint });
    return new BusyError(this.options.endpoint, expectedWaitMs, { cause });
  }
}

/** Between a group and its member in a grouped requester (`GroupedLedger`, below). */
const MEMBER_MARK = '>';

/** The requester a member of a group draws budget as (the group's share, the member's turn). */
export const groupMember = (group: string, member: string): string =>
  `${group}${MEMBER_MARK}${member}`;

/** `group` and `member` of a grouped requester; undefined for any other requester. */
function splitMember(requester: string): { group: string; member: string } | undefined {
  const at = requester.indexOf(MEMBER_MARK);
  if (at <= 0 || at === requester.length - 1) return undefined;
  return { group: requester.slice(0, at), member: requester.slice(at + 1) };
}

/** Most groups whose inner split one replica keeps (a group is a workflow step). */
const MAX_GROUPS = 1_000;

/**
 * Requesters that stand for many people at once (a Workflow Builder step's runs) as ONE
 * requester of the budget, fair among the people inside it.
 *
 * A grouped requester is spelled `<group>><member>` (groupMember below). The budget (the
 * lane's ledger, in memory or shared through Redis) sees only `<group>`: every run of the group
 * together holds at most one requester's share, whoever the runs name, so a workflow naming a
 * different person on each run still cannot take more than that. Within the group's share, each
 * member may hold at most the group's share less a reserve (the same rule as the ledger's, one
 * level down), so one member's burst leaves room for the group's next member: their run goes
 * out within the group's turn rather than a window later. That split is this replica's (its
 * memory); the group's cap itself holds across replicas.
 */
export class GroupedLedger implements Ledger {
  readonly limit: number;
  readonly share: number;
  /** Per group, the members' split of the group's share (a ledger whose limit is that share). */
  private readonly groups = new Map<string, MemoryLedger>();
  /** The member's slot in its group, by the budget slot's id. */
  private readonly inner = new Map<string, { group: MemoryLedger; slot: Slot }>();

  constructor(
    private readonly budget: Ledger,
    private readonly settings: { windowMs: number; reserveFraction: number; now: () => number },
  ) {
    this.limit = budget.limit;
    this.share = budget.share;
  }

  tryAcquire(requester: string, terms?: AcquireTerms): Acquired | Promise<Acquired> {
    const grouped = splitMember(requester);
    if (!grouped) return this.budget.tryAcquire(requester, terms);
    const group = this.groupOf(grouped.group);
    const own = group.tryAcquire(grouped.member);
    if (!own.granted) return { granted: false, waitMs: own.waitMs, refusal: 'share' };
    const settle = (result: Acquired): Acquired => {
      if (!result.granted) {
        group.cancel(own.slot);
        return result;
      }
      this.inner.set(result.slot.id, { group, slot: own.slot });
      return result;
    };
    const pending = this.budget.tryAcquire(grouped.group, terms);
    return pending instanceof Promise ? pending.then(settle) : settle(pending);
  }

  complete(slot: Slot): void {
    this.budget.complete(slot);
    const own = this.inner.get(slot.id);
    this.inner.delete(slot.id);
    own?.group.complete(own.slot);
  }

  cancel(slot: Slot): void {
    this.budget.cancel(slot);
    const own = this.inner.get(slot.id);
    this.inner.delete(slot.id);
    own?.group.cancel(own.slot);
  }

  block(ms: number): void {
    this.budget.block(ms);
  }

  waitMs(ahead: number): number {
    return this.budget.waitMs(ahead);
  }

  /** For a member: the later of its group's turn in the budget and its own within the group. */
  shareWaitMs(requester: string, ownAhead: number, share?: number): number {
    const grouped = splitMember(requester);
    if (!grouped) return this.budget.shareWaitMs(requester, ownAhead, share);
    return Math.max(
      this.budget.shareWaitMs(grouped.group, ownAhead, share),
      this.groupOf(grouped.group).shareWaitMs(grouped.member, ownAhead),
    );
  }

  /** For a member: what its group holds, the share it is counted against. */
  heldBy(requester: string): number {
    return this.budget.heldBy(splitMember(requester)?.group ?? requester);
  }

  windowTurnsAt(): number {
    return this.budget.windowTurnsAt();
  }

  private groupOf(name: string): MemoryLedger {
    let group = this.groups.get(name);
    if (!group) {
      const { windowMs, reserveFraction, now } = this.settings;
      if (this.groups.size >= MAX_GROUPS) this.groups.clear();
      group = new MemoryLedger(this.share, windowMs, now, fairShare(this.share, reserveFraction));
      this.groups.set(name, group);
    }
    return group;
  }
}
