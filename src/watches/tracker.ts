/**
 * Feeds readings into the watch state: from the checker's own fetches and from any user's
 * lookup (a lookup counts as a check). It only records; the notifier, run by the replica
 * that holds the checker lease, turns recorded crossings into Slack messages. So a crossing
 * seen by two replicas at once is recorded once (compare-and-set on the row's version) and
 * announced by one.
 */
import type { Item } from '../erp/schemas.js';
import { branchIdOf, type Watch, type WatchRepository } from './repository.js';
import { readItem, transition } from './rules.js';

export type CheckSource = 'round' | 'lookup';

/** How many times a reading is retried when another writer changed the row meanwhile. */
const CAS_ATTEMPTS = 3;

export class WatchTracker {
  constructor(private readonly repo: () => Promise<WatchRepository>) {}

  /** Records `item` as read at `at` for each of its active watches. */
  async observe(item: Item, at: number): Promise<void> {
    const repo = await this.repo();
    for (const watch of await repo.activeForItem(item.code)) {
      let current: Watch | undefined = watch;
      for (let attempt = 0; current !== undefined && attempt < CAS_ATTEMPTS; attempt += 1) {
        if (await this.apply(repo, current, item, at)) break;
        current = await repo.get(watch.id);
        if (current?.state === 'off') break;
      }
    }
  }

  /** The ERP no longer has the item: its watches are switched off (the notifier tells). */
  async itemGone(code: string, at: number): Promise<number> {
    const repo = await this.repo();
    let switched = 0;
    for (const watch of await repo.activeForItem(code)) {
      if (await repo.switchOff(watch, 'item_gone', at)) switched += 1;
    }
    return switched;
  }

  private async apply(
    repo: WatchRepository,
    watch: Watch,
    item: Item,
    at: number,
  ): Promise<boolean> {
    // A reading older than the one recorded (a slow lookup finishing late) says nothing new.
    if (watch.last_checked_at !== null && watch.last_checked_at > at) return true;
    if (watch.state === 'off') return true;
    const reading = readItem(item, branchIdOf(watch));
    if (reading === undefined) return repo.switchOff(watch, 'branch_gone', at).then(() => true);
    const base = {
      description: item.description,
      last_available: reading.available,
      last_on_order: reading.onOrder,
      last_checked_at: at,
      updated_at: at,
    };
    const snoozed = watch.snoozed_until !== null && watch.snoozed_until > at;
    if (snoozed) return repo.compareAndSet(watch, base);
    const step = transition(
      {
        state: watch.state,
        direction: watch.direction,
        threshold: watch.threshold,
        lastAvailable: watch.last_available,
      },
      reading,
    );
    switch (step.kind) {
      case 'cross':
        return repo.compareAndSet(watch, {
          ...base,
          state: 'past',
          crossed_before: step.before,
          crossed_at: at,
          crossings: watch.crossings + 1,
          alert_owed: 1,
          claimed_at: null,
          alert_ts: null,
          alert_shown: null,
        });
      case 'rearm':
        // The alert (if one was posted) stays referenced: the notifier marks it as over.
        return repo.compareAndSet(watch, {
          ...base,
          state: 'armed',
          alert_owed: 0,
          claimed_at: null,
        });
      default:
        return repo.compareAndSet(watch, base);
    }
  }
}
