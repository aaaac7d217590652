/**
 * The watches, built from their parts: what the composition root creates once and wires.
 *
 * The store opens lazily: at start when it already holds watches (PostgreSQL configured, or
 * the embedded file exists in DATA_DIR), else at the first `/stock watch`. Until then the
 * checker's ticks do nothing and the lookup feed passes items through untouched.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { ErpApi, Item } from '../erp/schemas.js';
import type { AppLogger } from '../log/logger.js';
import type { BackgroundBudget } from '../lookup/background.js';
import type { MayWatch } from './accessScreen.js';
import { WatchChecker } from './checker.js';
import type { WatchStoreOptions } from './database.js';
import { type DatabaseProblemKind, databaseProblem } from './databaseProblem.js';
import { DemandRepository, type DemandRow } from './demand.js';
import { DigestRepository, WatchDigests } from './digests.js';
import { type WatchFeed, watchFeed } from './feed.js';
import { HistoryRepository } from './history.js';
import { lazyWatchStore } from './lazy.js';
import { advisoryLease, type CheckerLease, redisLease, soleProcessLease } from './lease.js';
import { createWatchMetrics } from './metrics.js';
import { WatchNotifier } from './notifier.js';
import type { WatchPoster } from './poster.js';
import { WatchRepository } from './repository.js';
import { type WatchLimits, WatchService } from './service.js';
import { SQLITE_FILE } from './sqlite.js';
import { WatchTracker } from './tracker.js';

interface WatchesOptions {
  store: WatchStoreOptions;
  /** The raw ERP (the checker's calls go through `budget`, not the lookup cache). */
  erp: Pick<ErpApi, 'getItem'>;
  /** A user's item fetch through the lookup service (creation checks the item exists). */
  fetchItem: (code: string, requester: string) => Promise<Item>;
  budget: BackgroundBudget;
  poster: WatchPoster;
  limits: WatchLimits;
  logger: AppLogger;
  registry?: Registry;
  /** With Redis, the checker's lease lives there (key e.g. `erp-lookups:watches:<tag>:lease`). */
  redis?: { client: Redis; leaseKey: string };
  disabled?: 'shared_without_database';
  /** The access lists, asked again before every check round and every post. */
  mayWatch?: MayWatch;
  tickMs?: number;
  now?: () => number;
}

export interface Watches {
  service: WatchService;
  checker: WatchChecker;
  tracker: WatchTracker;
  notifier: WatchNotifier;
  /** `/stock digest` and the daily digests' sending. */
  digests: WatchDigests;
  /** Unmet demand: the No answers counted by item and branch (`/stock demand`). */
  demand: UnmetDemand;
  /** Give `feed.offer` every item a user's lookup fetched (or wrap the ERP with `watchFeedErp`). */
  feed: WatchFeed;
  /** For /readyz: undefined while unused; else whether the database answers. */
  /** true: up; a reason when down (database_missing …); undefined: never used. */
  databaseReady(): Promise<true | DatabaseProblemKind | undefined>;
  /** Whether the store was opened: App Home lists watches only then, never opening it. */
  used(): boolean;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The No answers counted where watches live: counts only, never who asked or where. */
export interface UnmetDemand {
  /** False when watches are off (several replicas without a shared database): nothing counted. */
  available: boolean;
  /** Counts one No; never throws (a database away loses the count, and says so in the log). */
  noAnswered(code: string, branch: { id: number; name: string } | undefined): void;
  /** The last `days` days, most asked first. */
  recent(days: number, limit: number): Promise<DemandRow[]>;
}

const LEASE_MS = 30_000;
/** How often history older than 30 days, or that no watch reads any more, is dropped. */
const SWEEP_MS = 60 * 60_000;

export function createWatches(options: WatchesOptions): Watches {
  const logger = options.logger.child({ component: 'watches' });
  const lazy = lazyWatchStore(options.store);
  const metrics = options.registry ? createWatchMetrics(options.registry) : undefined;
  let repository: Promise<WatchRepository> | undefined;
  const repo = () => {
    repository ??= lazy.get().then(
      (store) => {
        logger.info({ driver: store.driver }, 'watch database open');
        return new WatchRepository(store.db);
      },
      (error: unknown) => {
        repository = undefined;
        throw error;
      },
    );
    return repository;
  };
  const opened = <T>(make: (store: Awaited<ReturnType<typeof lazy.get>>) => T) => {
    let made: Promise<T> | undefined;
    return () => {
      made ??= lazy.get().then(make, (error: unknown) => {
        made = undefined;
        throw error;
      });
      return made;
    };
  };
  const history = opened((store) => new HistoryRepository(store.db));
  const digestRepo = opened((store) => new DigestRepository(store.db));
  const demandRepo = opened((store) => new DemandRepository(store.db));
  const tracker = new WatchTracker(repo, history);
  const feed = watchFeed((item, at) => tracker.observe(item, at), logger, metrics);
  const notifier = new WatchNotifier({
    repo,
    history,
    poster: options.poster,
    logger,
    ...(metrics ? { metrics } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.mayWatch ? { mayWatch: options.mayWatch } : {}),
  });
  const digests = new WatchDigests({
    digests: digestRepo,
    watchesOf: async (channelId) => (await repo()).activeWhere({ channelId }),
    coverOf: (watch) => notifier.coverOf(watch),
    demandOf: async (at, days, limit) => (await demandRepo()).recent(at, days, limit),
    poster: options.poster,
    logger,
    ...(metrics ? { metrics } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const now = options.now ?? Date.now;
  let sweptAt = 0;
  const afterRound = async () => {
    await digests.send();
    if (now() - sweptAt < SWEEP_MS) return;
    sweptAt = now();
    const kept = await history();
    await kept.forgetUnwatched();
    await kept.prune(sweptAt);
  };
  // Set by each readiness look: while the database is away the checker pauses instead of
  // failing a tick every few seconds.
  let databaseAway = false;
  let pgLease: CheckerLease | undefined;
  const lease: CheckerLease = options.redis
    ? redisLease(options.redis.client, options.redis.leaseKey, LEASE_MS)
    : options.store.kind === 'postgres'
      ? {
          async hold() {
            const store = await lazy.get();
            pgLease ??= store.pool ? advisoryLease(store.pool) : soleProcessLease;
            return pgLease.hold();
          },
          release: async () => pgLease?.release(),
        }
      : soleProcessLease;
  const checker = new WatchChecker({
    repo,
    tracker,
    notifier,
    erp: options.erp,
    budget: options.budget,
    // Ticks before anyone used watches neither open the store nor take the lease.
    lease: { hold: async () => lazy.opened() && lease.hold(), release: () => lease.release() },
    limits: options.limits,
    logger,
    storeOpen: () => lazy.opened(),
    paused: () => databaseAway,
    onWatched: (codes) => feed.setWatched(codes),
    afterRound,
    ...(metrics ? { metrics } : {}),
    ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.mayWatch ? { mayWatch: options.mayWatch } : {}),
  });
  const service = new WatchService({
    repo,
    fetchItem: options.fetchItem,
    poster: options.poster,
    limits: options.limits,
    ...(options.disabled ? { disabled: options.disabled } : {}),
    ...(options.now ? { now: options.now } : {}),
    story: notifier,
    onChange: () => {
      void repo()
        .then((r) => r.activeItems())
        .then((items) => feed.setWatched(new Set(items.map((i) => i.code))))
        .catch(() => {});
    },
  });
  // Counts still being written: closing waits for them, so a No answered just before a stop
  // (a `--once`, a deploy) is counted, not lost to a closed database.
  const counting = new Set<Promise<void>>();
  const demand: UnmetDemand = {
    available: options.disabled === undefined,
    noAnswered(code, branch) {
      if (options.disabled) return;
      const written = demandRepo()
        .then((repo) => repo.record(code, branch, now()))
        .catch((error: unknown) => logger.warn({ err: error }, 'could not count a No answer'))
        .finally(() => counting.delete(written));
      counting.add(written);
    },
    async recent(days, limit) {
      return (await demandRepo()).recent(now(), days, limit);
    },
  };
  return {
    service,
    checker,
    tracker,
    notifier,
    digests,
    demand,
    feed,
    used: () => lazy.opened(),
    async databaseReady() {
      // PostgreSQL is configured on purpose: away at start is worth saying. An embedded file
      // never opened is not a neighbour at all.
      if (!lazy.opened() && options.store.kind !== 'postgres') return undefined;
      try {
        const store = await lazy.get();
        await store.db.selectFrom('watches').select('id').limit(1).execute();
        databaseAway = false;
        return true;
      } catch (error) {
        databaseAway = true;
        return databaseProblem(error, databaseUrlOf(options.store)).kind;
      }
    },
    async start() {
      if (options.disabled) return;
      const inUse =
        options.store.kind === 'postgres' ||
        (options.store.dataDir !== undefined &&
          existsSync(join(options.store.dataDir, SQLITE_FILE)));
      if (inUse) {
        // A database away at start is not fatal: the next tick or command opens it.
        await repo().catch((error: unknown) => {
          const problem = databaseProblem(error, databaseUrlOf(options.store));
          logger.warn({ event: 'watch_database', reason: problem.kind }, problem.message);
        });
      }
      checker.start();
    },
    async close() {
      await checker.stop();
      await Promise.all(counting);
      await lazy.close();
    },
  };
}

const databaseUrlOf = (store: WatchStoreOptions) =>
  store.kind === 'postgres' ? store.url : undefined;

export { feedWatches } from './feed.js';
export { slackPoster } from './poster.js';
export { checkIntervalSeconds } from './service.js';
export { type DeferredPoster, deferredPoster, followDatabase } from './wiring.js';
