/**
 * The rate budget for one credential and endpoint: a ledger of call slots. This is THE
 * algorithm of the lookup layer (README "Architecture" shows where it sits); everything else
 * is lru-cache and cockatiel.
 *
 * Slots. The ERP does not say how its minute is measured. A fixed-window counter lets 2x the
 * limit through across a window boundary, which a sliding window upstream answers with 429s.
 * The ledger instead guarantees at most `limit` calls in ANY `windowMs` span as the ERP sees
 * them: a slot is taken when a call is sent and released only `windowMs` after its response
 * arrived (the ERP received the request somewhere between the two), so a fixed, sliding or
 * token-bucket limiter upstream never sees more than `limit` per window. The cost is one
 * round trip per slot per window (under 0.1% of a one-minute budget).
 *
 * Fair share. One requester (a Slack user) may hold at most `share = limit - reserve` slots in
 * a window; the reserve (default a sixth of the limit, FAIR_SHARE_RESERVE) is left for people
 * who have used little, so one person's burst never leaves the next person a window-long
 * wait. The reserve is graded (`gradedReserve`): a requester holding h slots takes another
 * only while min(h, reserve) slots stay free after it, so no two requesters together can
 * take the last slot from a third. The cap is per requester, so a burst from many people
 * still uses the whole budget at once. The queue in front (fairQueue.ts) serves waiting
 * requesters round-robin.
 *
 * Estimates in O(1). A completed slot releases at `completion + windowMs`; completions happen
 * in time order, so completed slots form a FIFO already sorted by release. A slot still in
 * flight releases later than any completed one (at least `now + windowMs`), so the k-th
 * release is either the k-th completed slot or, past those, about the oldest in-flight call's
 * send time plus a response time plus the window (exact to within one response time). The
 * start of the call queued `ahead` places from now is then one lookup: a free slot starts
 * now, the rest reuse the (ahead - free)-th release, one cycle (window + response time) later
 * for every full round of the limit.
 */
import { MAX_RETRY_AFTER_MS } from '../erp/errors.js';

export interface Slot {
  readonly id: string;
  readonly sentAt: number;
  readonly requester: string;
}

/** `budget`: the endpoint's whole budget is taken (or paused); `share`: this requester's is. */
type Refusal = 'budget' | 'share';

export type Acquired =
  | { granted: true; slot: Slot }
  | { granted: false; waitMs: number; refusal: Refusal };

/** A requester's own terms, tighter than the ledger's (a background requester's). */
export interface AcquireTerms {
  /** Most slots this requester may hold within a window; never more than the ledger's share. */
  share?: number;
  /** Slots that must stay free after this one is taken (a background call leaves one). */
  keepFree?: number;
}

export interface Ledger {
  readonly limit: number;
  /** Most slots one requester may hold within a window (the limit minus the reserve). */
  readonly share: number;
  tryAcquire(requester: string, terms?: AcquireTerms): Acquired | Promise<Acquired>;
  /** The call has its response (or failed after reaching the ERP): hold the slot one more window. */
  complete(slot: Slot): void;
  /** No call was made with this slot: free it at once. */
  cancel(slot: Slot): void;
  /** After a 429: send nothing on this budget for `ms`. */
  block(ms: number): void;
  /**
   * How long the call that would queue `ahead` places from now waits to start (0: at once):
   * till `ahead + 1` slots are free. The ledger counts its slots first and reads its clock
   * after, so a slot free when counted is never weighed against a time read before the count
   * (a millisecond turning in between made a free slot look taken).
   */
  waitMs(ahead: number): number;
  /** How long `requester`'s call queued behind `ownAhead` of its own waits (its share only). */
  shareWaitMs(requester: string, ownAhead: number, share?: number): number;
  /** Slots `requester` holds now (in flight or within their window). */
  heldBy(requester: string): number;
  /** When the oldest slot frees: the earliest the ERP's window can have turned. */
  windowTurnsAt(): number;
}

/**
 * The wait until `start`, from a clock read now: after the ledger has counted its slots, so a
 * slot free when counted is never weighed against an earlier time (waitMs on Ledger).
 */
export const waitFrom = (start: number, now: () => number): number => Math.max(0, start - now());

let slotCounter = 0;
function newSlotId(): string {
  slotCounter += 1;
  return `${process.pid}-${Date.now().toString(36)}-${slotCounter}-${Math.random().toString(36).slice(2, 8)}`;
}

/** The reserve kept for light users: `fraction` of the limit, rounded down, never the whole. */
export function fairShare(limit: number, reserveFraction: number): number {
  const reserve = Math.floor(limit * Math.min(Math.max(reserveFraction, 0), 1));
  return Math.max(1, limit - reserve);
}

/**
 * Slots a requester already holding `held` must leave free for others when it takes one more:
 * as many as it holds beyond its first `grace` slots, up to the reserve. Past its first few,
 * a requester never takes the last free slots, so however two requesters (a person, the
 * workflow step's runs, typeahead) interleave, a third always finds a free slot at once.
 * Alone, a requester still reaches its share (`limit - reserve`); a second one then gets
 * about half of what is left, a third half of the rest.
 */
export function gradedReserve(held: number, reserve: number, grace = 0): number {
  return Math.max(0, Math.min(held - grace, reserve));
}

/**
 * A requester's first slots that the graded reserve never holds back: a twentieth of the
 * limit (3 of 60 getItem, 1 of 20 searches). A burst from many people who each ask a few
 * things (twenty people, three lookups each) then still uses the whole budget at once, as the
 * fair share promises, while two greedy requesters still leave a third a free slot.
 */
export function reserveGrace(limit: number): number {
  return Math.floor(limit / 20);
}

/** An array used as a FIFO with O(1) shift and index, compacted now and then. */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  at(index: number): T | undefined {
    return this.items[this.head + index];
  }

  shift(): T | undefined {
    const item = this.items[this.head];
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

interface StartInput {
  now: number;
  limit: number;
  /** Slots held now (may exceed the limit in Redis mode: slots granted elsewhere). */
  held: number;
  /** The k-th (0-based) release among the held slots, ascending. */
  releaseAt: (k: number) => number;
  /** How long a slot stays taken once used: the window plus a response time. */
  cycleMs: number;
  blockedUntil: number;
}

/** When would the call queued `ahead` places from now start? O(1) given `releaseAt`. */
export function projectStart(input: StartInput, ahead: number): number {
  const free = Math.max(0, input.limit - input.held);
  const round = Math.floor(ahead / input.limit);
  const place = ahead % input.limit;
  const base = place < free ? input.now : input.releaseAt(place - free);
  return Math.max(Math.max(base, input.now) + round * input.cycleMs, input.blockedUntil);
}

interface Holdings {
  /** Calls in flight: id -> send time, in send order (Map keeps insertion order). */
  inFlight: Map<string, number>;
  /** Release times of completed calls, ascending by construction. */
  done: Fifo<number>;
}

const newHoldings = (): Holdings => ({ inFlight: new Map(), done: new Fifo() });

/** The in-process ledger: the whole budget in memory mode, this replica's part in Redis mode. */
export class MemoryLedger implements Ledger {
  readonly share: number;
  private readonly all = newHoldings();
  /** Who completed each slot in `all.done`, in the same order, to prune per requester. */
  private readonly doneBy = new Fifo<string>();
  private readonly byRequester = new Map<string, Holdings>();
  private blockedUntil = 0;
  /** A running estimate of the ERP's response time, for wait estimates only. */
  private latencyMs = 100;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number,
    share = limit,
  ) {
    this.share = Math.min(limit, Math.max(1, share));
  }

  tryAcquire(requester: string, terms: AcquireTerms = {}): Acquired {
    const now = this.now();
    this.prune(now);
    if (now < this.blockedUntil) {
      return { granted: false, waitMs: this.blockedUntil - now, refusal: 'budget' };
    }
    const keepFree = Math.max(0, terms.keepFree ?? 0);
    const held = this.size(this.all);
    if (held + keepFree >= this.limit) {
      const release = this.releaseAt(this.all, Math.max(0, held + keepFree - this.limit), now);
      return { granted: false, waitMs: Math.max(1, release - now), refusal: 'budget' };
    }
    const own = this.byRequester.get(requester);
    const ownHeld = own ? this.size(own) : 0;
    if (own && ownHeld >= this.shareFor(terms.share)) {
      return { granted: false, waitMs: this.waitFor(own, now), refusal: 'share' };
    }
    const keepForOthers = gradedReserve(ownHeld, this.limit - this.share, reserveGrace(this.limit));
    if (held + keepForOthers >= this.limit) {
      const release = this.releaseAt(this.all, held + keepForOthers - this.limit, now);
      return { granted: false, waitMs: Math.max(1, release - now), refusal: 'share' };
    }
    const slot = { id: newSlotId(), sentAt: now, requester };
    this.record(slot);
    return { granted: true, slot };
  }

  /** Adds a slot granted elsewhere (Redis) to this replica's ledger, ignoring the local limit. */
  record(slot: Slot): void {
    this.all.inFlight.set(slot.id, slot.sentAt);
    this.holdings(slot.requester).inFlight.set(slot.id, slot.sentAt);
  }

  complete(slot: Slot): void {
    const sentAt = this.all.inFlight.get(slot.id);
    if (sentAt === undefined) return;
    const now = this.now();
    this.latencyMs = 0.8 * this.latencyMs + 0.2 * Math.max(0, now - sentAt);
    this.forget(slot);
    // `now` never goes back, so both FIFOs stay sorted by release.
    this.all.done.push(now + this.windowMs);
    this.doneBy.push(slot.requester);
    this.holdings(slot.requester).done.push(now + this.windowMs);
  }

  cancel(slot: Slot): void {
    this.forget(slot);
  }

  block(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + Math.min(ms, MAX_RETRY_AFTER_MS));
  }

  /** Calls in flight or held: the part of the budget this replica is using now. */
  held(): number {
    this.prune(this.now());
    return this.size(this.all);
  }

  heldBy(requester: string): number {
    this.prune(this.now());
    const own = this.byRequester.get(requester);
    return own ? this.size(own) : 0;
  }

  estimatedLatencyMs(): number {
    return this.latencyMs;
  }

  waitMs(ahead: number): number {
    return waitFrom(this.startAt(ahead), this.now);
  }

  shareWaitMs(requester: string, ownAhead: number, share?: number): number {
    return waitFrom(this.shareStartAt(requester, ownAhead, share), this.now);
  }

  /** Estimated start (absolute ms) of the call that would queue `ahead` places from now. */
  startAt(ahead: number): number {
    const now = this.now();
    this.prune(now);
    return projectStart(this.input(this.all, this.limit, now), ahead);
  }

  /** Estimated start of `requester`'s call queued behind `ownAhead` of its own (its share only). */
  shareStartAt(requester: string, ownAhead: number, share?: number): number {
    const now = this.now();
    this.prune(now);
    const own = this.byRequester.get(requester) ?? newHoldings();
    return projectStart(this.input(own, this.shareFor(share), now), ownAhead);
  }

  /** A requester's own share: never above the ledger's, at least one slot. */
  shareFor(share: number | undefined): number {
    return share === undefined ? this.share : Math.min(this.share, Math.max(1, Math.floor(share)));
  }

  windowTurnsAt(): number {
    const now = this.now();
    this.prune(now);
    return this.size(this.all) > 0 ? this.releaseAt(this.all, 0, now) : now;
  }

  private input(holdings: Holdings, limit: number, now: number): StartInput {
    return {
      now,
      limit,
      held: this.size(holdings),
      releaseAt: (k) => this.releaseAt(holdings, k, now),
      cycleMs: this.windowMs + this.latencyMs,
      blockedUntil: this.blockedUntil,
    };
  }

  /** The k-th release, ascending: completed slots first, then (about) the calls in flight. */
  private releaseAt(holdings: Holdings, k: number, now: number): number {
    const done = holdings.done.at(k);
    if (done !== undefined) return done;
    const oldest = holdings.inFlight.values().next();
    const sentAt = oldest.done ? now : oldest.value;
    return Math.max(now, sentAt + this.latencyMs) + this.windowMs;
  }

  private waitFor(holdings: Holdings, now: number): number {
    return Math.max(1, this.releaseAt(holdings, 0, now) - now);
  }

  private size(holdings: Holdings): number {
    return holdings.inFlight.size + holdings.done.length;
  }

  private holdings(requester: string): Holdings {
    let own = this.byRequester.get(requester);
    if (!own) {
      own = newHoldings();
      this.byRequester.set(requester, own);
    }
    return own;
  }

  private forget(slot: Slot): void {
    this.all.inFlight.delete(slot.id);
    const own = this.byRequester.get(slot.requester);
    own?.inFlight.delete(slot.id);
    if (own && this.size(own) === 0) this.byRequester.delete(slot.requester);
  }

  /** Drops released slots: O(released), each slot once. */
  private prune(now: number): void {
    for (;;) {
      const release = this.all.done.at(0);
      if (release === undefined || release > now) return;
      this.all.done.shift();
      const requester = this.doneBy.shift();
      if (requester === undefined) continue;
      const own = this.byRequester.get(requester);
      // The requester's FIFO is sorted too, and holds this same release at its head.
      own?.done.shift();
      if (own && this.size(own) === 0) this.byRequester.delete(requester);
    }
  }
}
