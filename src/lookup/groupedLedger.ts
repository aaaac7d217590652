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
import {
  type Acquired,
  type AcquireTerms,
  fairShare,
  type Ledger,
  MemoryLedger,
  type Slot,
} from './ledger.js';

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
