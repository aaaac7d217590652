/**
 * The background checker: on each tick the replica holding the lease fetches every watched
 * item whose last check (its own, or any user's lookup) is older than the interval, one
 * getItem each however many watches it has, within the checker's share of the budget; then
 * the notifier brings Slack up to date.
 *
 * The interval follows from the budget: items ÷ (share × limit) minutes, never under
 * WATCH_MIN_INTERVAL_SECONDS. A tick that finds the budget busy stops and the next one
 * carries on with the items still due, least recently checked first.
 */
import { NotFoundError } from '../erp/errors.js';
import type { ErpApi } from '../erp/schemas.js';
import { type AppLogger, errorFields } from '../log/logger.js';
import type { BackgroundBudget } from '../lookup/background.js';
import { type MayWatch, screenWatches } from './accessScreen.js';
import type { CheckerLease } from './lease.js';
import type { WatchMetrics } from './metrics.js';
import type { WatchNotifier } from './notifier.js';
import type { WatchRepository } from './repository.js';
import { checkIntervalSeconds, type WatchLimits } from './service.js';
import type { WatchTracker } from './tracker.js';

interface CheckerOptions {
  /** The access lists, asked again before every round: refused watches are switched off. */
  mayWatch?: MayWatch;
  repo: () => Promise<WatchRepository>;
  tracker: WatchTracker;
  notifier: WatchNotifier;
  /** The ERP itself (not the lookup service): the budget's `run` wraps each call. */
  erp: Pick<ErpApi, 'getItem'>;
  budget: BackgroundBudget;
  lease: CheckerLease;
  limits: WatchLimits;
  logger: AppLogger;
  metrics?: WatchMetrics;
  /** True while the database is known to be away: ticks do nothing until it answers again. */
  paused?: () => boolean;
  /** Whether the store is open (a replica without the lease then only refreshes `onWatched`). */
  storeOpen?: () => boolean;
  /** Told the codes watched after each tick (the lookup feed skips every other item). */
  onWatched?: (codes: ReadonlySet<string>) => void;
  /** Run by the lease holder after each round's notices: the daily digests, history upkeep. */
  afterRound?: () => Promise<void>;
  /** How often a tick runs; 5 s by default (alerts owed are retried at this pace too). */
  tickMs?: number;
  now?: () => number;
}

interface TickReport {
  held: boolean;
  checked: number;
  due: number;
  intervalSeconds: number;
}

export class WatchChecker {
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(private readonly options: CheckerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** One tick: exported for tests and the console (which can make time pass). */
  async tick(): Promise<TickReport> {
    const { options } = this;
    if (options.paused?.()) return { held: false, checked: 0, due: 0, intervalSeconds: 0 };
    if (!(await options.lease.hold())) {
      // Another replica checks; this one still learns what is watched, so its users'
      // lookups count as checks too.
      if (options.storeOpen?.()) {
        const items = await (await options.repo()).activeItems();
        options.onWatched?.(new Set(items.map((i) => i.code)));
      }
      return { held: false, checked: 0, due: 0, intervalSeconds: 0 };
    }
    const repo = await options.repo();
    if (options.mayWatch) await screenWatches(repo, options.mayWatch, this.now());
    const items = await repo.activeItems();
    options.onWatched?.(new Set(items.map((i) => i.code)));
    const intervalSeconds = checkIntervalSeconds(items.length, options.limits);
    options.metrics?.interval.set(intervalSeconds);
    const dueBefore = this.now() - intervalSeconds * 1000;
    const due = items.filter((i) => i.checkedAt === null || i.checkedAt <= dueBefore);
    let checked = 0;
    for (const { code } of due) {
      if (options.budget.usersWaiting() || options.budget.waitMs() > 0) break;
      await this.check(repo, code);
      checked += 1;
    }
    await options.notifier.reconcile();
    await options.afterRound?.();
    if (options.metrics) {
      const counts = await repo.countByState();
      for (const [state, n] of Object.entries(counts)) options.metrics.watches.set({ state }, n);
    }
    return { held: true, checked, due: due.length, intervalSeconds };
  }

  /**
   * Checks one watched item now, however recently it was checked, then brings Slack up to
   * date: the console's `set-stock` uses it so a changed stock is announced at once. False
   * when the item is not watched, or this replica does not hold the lease.
   */
  async checkNow(code: string): Promise<boolean> {
    const { options } = this;
    if (options.paused?.() || !(await options.lease.hold())) return false;
    const repo = await options.repo();
    const watched = (await repo.activeItems()).some((i) => i.code === code);
    if (watched) await this.check(repo, code);
    await options.notifier.reconcile();
    return watched;
  }

  private async check(repo: WatchRepository, code: string): Promise<void> {
    const { options } = this;
    try {
      const item = await options.budget.run((signal) =>
        options.erp.getItem({ code }, { signal, background: true }),
      );
      await options.tracker.observe(item, this.now());
      options.metrics?.checks.inc({ source: 'round', outcome: 'ok' });
    } catch (error) {
      if (error instanceof NotFoundError) {
        await options.tracker.itemGone(code, this.now());
        options.metrics?.checks.inc({ source: 'round', outcome: 'gone' });
        return;
      }
      options.metrics?.checks.inc({ source: 'round', outcome: 'error' });
      options.logger.warn(
        { err: errorFields(error) },
        'watch check failed; the item is checked again next round',
      );
      // Paced like a success, so a failing ERP is not asked again every tick.
      await repo.markChecked(code, this.now());
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick()
        .catch((error: unknown) => {
          this.options.logger.warn({ err: errorFields(error) }, 'watch check tick failed');
        })
        .finally(() => {
          if (this.stopped) return;
          this.timer = setTimeout(loop, this.options.tickMs ?? 5_000);
          this.timer.unref();
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.options.lease.release().catch(() => {});
  }
}
