/**
 * Feeds readings into the watch state: from the checker's own fetches and from any user's
 * lookup (a lookup counts as a check). It only records; the notifier, run by the replica
 * that holds the checker lease, turns recorded crossings into Slack messages. So a crossing
 * seen by two replicas at once is recorded once (compare-and-set on the row's version) and
 * announced by one.
 */
import type { Item } from '../erp/schemas.js';
import type { HistoryRepository } from './history.js';
import { branchIdOf, type Watch, type WatchRepository } from './repository.js';
import { readItem, transition } from './rules.js';

/** How many times a reading is retried when another writer changed the row meanwhile. */
const CAS_ATTEMPTS = 3;

export class WatchTracker {
  constructor(
    private readonly repo: () => Promise<WatchRepository>,
    /** Where readings are kept for days of cover; absent: no history (older rigs). */
    private readonly history?: () => Promise<HistoryRepository>,
  ) {}

  /** Records `item` as read at `at` for each of its active watches, and in their history. */
  async observe(item: Item, at: number): Promise<void> {
    const repo = await this.repo();
    const watches = await repo.activeForItem(item.code);
    await this.remember(item, watches, at);
    for (const watch of watches) {
      let current: Watch | undefined = watch;
      for (let attempt = 0; current !== undefined && attempt < CAS_ATTEMPTS; attempt += 1) {
        if (await this.apply(repo, current, item, at)) break;
        current = await repo.get(watch.id);
        if (current?.state === 'off') break;
      }
    }
  }

  /** One history point per item and branch its watches read (not one per watch). */
  private async remember(item: Item, watches: readonly Watch[], at: number): Promise<void> {
    if (this.history === undefined || watches.length === 0) return;
    const history = await this.history();
    const keys = new Set(watches.map((w) => w.branch_key));
    for (const key of keys) {
      const reading = readItem(item, key === '' ? undefined : Number(key));
      if (reading !== undefined) await history.record(item.code, key, at, reading.available);
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
        // The thread's root (`alert_ts`) stays: a later crossing is a reply in its thread.
        return repo.compareAndSet(watch, {
          ...base,
          state: 'past',
          crossed_before: step.before,
          crossed_at: at,
          crossings: watch.crossings + 1,
          turns: watch.turns + 1,
          alert_owed: 1,
          claimed_at: null,
          alert_shown: null,
        });
      case 'rearm':
        // A return is told in the thread when there is one (posted, or being posted now); a
        // crossing never announced needs no return either.
        return repo.compareAndSet(watch, {
          ...base,
          state: 'armed',
          turns: watch.turns + 1,
          alert_owed: watch.alert_ts !== null || watch.alert_owed === 2 ? 1 : 0,
          claimed_at: null,
        });
      default:
        return repo.compareAndSet(watch, base);
    }
  }
}
