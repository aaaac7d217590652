/**
 * The catalogue as the rest of the app sees it: the index, the crawl that keeps it, the
 * typeahead, and its status for App Home, /metrics and /readyz.
 *
 * Scheduling: a tick every `syncMs`. With Redis, the replica holding the lease crawls when a
 * pass is due and publishes the snapshot; the others load each newer snapshot. Without Redis
 * the one process crawls, and saves to CATALOGUE_FILE when set.
 */
import type { Redis } from 'ioredis';
import { Gauge, type Registry } from 'prom-client';
import type { ErpApi } from '../erp/schemas.js';
import { type AppLogger, errorFields } from '../log/logger.js';
import type { BackgroundBudget } from '../lookup/background.js';
import type { ItemQuery, LookupService } from '../lookup/types.js';
import { CatalogueCrawler, type CrawlProgress } from './crawl.js';
import { type IndexedPage, indexedPage } from './match.js';
import type { CatalogueItem, CategoryCount, SupplierCount } from './records.js';
import { loadSnapshotFile, RedisCatalogueShare, saveSnapshotFile } from './shared.js';
import { CatalogueStore } from './store.js';
import { nearestCodes, Suggester } from './suggest.js';

interface CatalogueOptions {
  /** For typeahead searches when the index is incomplete (cached, fair, budgeted). */
  lookup: LookupService;
  /** The raw ERP for the crawl (not the observed one: the crawl feeds the store itself). */
  erp: ErpApi;
  /** Undefined: no crawl (CATALOGUE_CRAWL_SHARE=0); the index still fills from lookups. */
  budget: BackgroundBudget | undefined;
  logger: AppLogger;
  registry?: Registry;
  /** CATALOGUE_REFRESH_MINUTES in ms. */
  refreshMs: number;
  /** How long an upstream typeahead search covers its refinements (the cache lifetime). */
  coverMs: number;
  file?: string;
  redis?: { client: Redis; prefix: string };
  /** The first tick waits this long, so start-up lookups go first. Default 15 s. */
  startDelayMs?: number;
  /** Default 10 s. */
  syncMs?: number;
  /** Default 30 s. */
  leaseMs?: number;
  store?: CatalogueStore;
  now?: () => number;
}

interface CatalogueStatus {
  items: number;
  /** CATALOGUE_MAX_ITEMS: the most items the index holds. */
  maxItems: number;
  /**
   * Items were turned away at `maxItems`: the index misses some, so it is never complete and
   * the crawl stops (word searches go to the ERP, typeahead asks it as while filling).
   */
  full: boolean;
  /** Share of the ERP's items held, when the ERP told us its total; else undefined. */
  coverage: number | undefined;
  /** A crawl pass reached its end recently (within two refresh periods). */
  complete: boolean;
  lastFullPassAt: Date | undefined;
  crawling: boolean;
  /** `leader` crawls; `follower` reads another replica's crawl; `local` without Redis. */
  role: 'local' | 'leader' | 'follower' | 'off';
}

const SUGGEST_WAIT_MS = 700;

export class Catalogue {
  readonly store: CatalogueStore;
  readonly crawler: CatalogueCrawler | undefined;
  readonly suggester: Suggester;
  private readonly share: RedisCatalogueShare | undefined;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private leader = false;
  private loadedVersion = 0;
  private closed = false;
  private warnedFull = false;

  constructor(private readonly options: CatalogueOptions) {
    this.now = options.now ?? Date.now;
    this.store = options.store ?? new CatalogueStore();
    this.share = options.redis
      ? new RedisCatalogueShare(
          options.redis.client,
          options.redis.prefix,
          options.leaseMs ?? 30_000,
        )
      : undefined;
    this.crawler = options.budget
      ? new CatalogueCrawler({
          store: this.store,
          budget: options.budget,
          erp: options.erp,
          logger: options.logger.child({ component: 'catalogue' }),
          now: this.now,
          mayContinue: () => !this.closed && (this.share === undefined || this.leader),
        })
      : undefined;
    this.suggester = new Suggester({
      store: this.store,
      lookup: options.lookup,
      complete: () => this.isComplete(),
      waitMs: SUGGEST_WAIT_MS,
      coverMs: options.coverMs,
      now: this.now,
    });
    if (options.registry) this.registerMetrics(options.registry);
  }

  /** Loads the saved file (if any) and starts the schedule. */
  start(): void {
    this.schedule(this.options.startDelayMs ?? 15_000);
  }

  /** One scheduling step (tests call it directly): sync, then crawl when due. */
  tick(): Promise<void> {
    this.ticking ??= this.step().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  status(): CatalogueStatus {
    const { lastFullPassAt, knownTotal } = this.store.state;
    return {
      items: this.store.size,
      maxItems: this.store.maxItems,
      full: this.store.full,
      coverage:
        knownTotal !== undefined && knownTotal > 0
          ? Math.min(1, this.store.size / knownTotal)
          : undefined,
      complete: this.isComplete(),
      lastFullPassAt: lastFullPassAt === undefined ? undefined : new Date(lastFullPassAt),
      crawling: this.crawler?.progress().running ?? false,
      role: !this.crawler ? 'off' : !this.share ? 'local' : this.leader ? 'leader' : 'follower',
    };
  }

  /** For /readyz's body: the catalogue never makes the app unready, it informs. */
  readiness(): Record<string, unknown> {
    const { items, maxItems, full, coverage, complete, lastFullPassAt, role } = this.status();
    // Named one by one: a field later added to status() is not published by /readyz unless
    // it is added here. As JSON: what is not known yet is null, the time an ISO string.
    return {
      items,
      maxItems,
      full,
      complete,
      coverage: coverage ?? null,
      lastFullPassAt: lastFullPassAt?.toISOString() ?? null,
      role,
    };
  }

  crawlProgress(): CrawlProgress | undefined {
    return this.crawler?.progress();
  }

  /** `/stock words` from the index: only when it is complete and recent. */
  searchPage(query: ItemQuery, offset: number, pageSize: number): IndexedPage | undefined {
    if (!this.isComplete()) return undefined;
    return indexedPage(this.store, query, offset, pageSize);
  }

  suggest(
    typed: string,
    options: { category?: number; requester?: string; limit: number },
  ): Promise<CatalogueItem[]> {
    return this.suggester.suggest(typed, options);
  }

  /**
   * Whether the ERP searches with filters and no word (the crawl found out; undefined: not
   * yet known).
   */
  searchesWithoutWords(): boolean | undefined {
    return this.store.state.wordless;
  }

  /** The item the index knows by this code, in any case (`widget-9` is WIDGET-9). */
  known(code: string): CatalogueItem | undefined {
    return this.store.byCodeOf(code);
  }

  /** Known item codes close to one that matched nothing ("did you mean WIDGET-9?"). */
  nearestCodes(typed: string, limit = 3): string[] {
    return nearestCodes(this.store.knownCodes(), typed, limit);
  }

  categories(): CategoryCount[] {
    return this.store.categories();
  }

  suppliers(): SupplierCount[] {
    return this.store.suppliers();
  }

  isComplete(): boolean {
    if (this.store.full) return false;
    const at = this.store.state.lastFullPassAt;
    return at !== undefined && this.now() - at <= 2 * this.options.refreshMs;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.crawler?.stop();
    await this.ticking;
    if (this.leader) await this.share?.releaseLease().catch(() => undefined);
  }

  /** Loads CATALOGUE_FILE, once, before the first crawl. */
  async loadFile(): Promise<void> {
    if (!this.options.file) return;
    try {
      const snapshot = await loadSnapshotFile(this.options.file);
      if (snapshot) this.store.load(snapshot);
    } catch (error) {
      this.options.logger.warn(
        { err: errorFields(error) },
        'CATALOGUE_FILE could not be read; starting with an empty index',
      );
    }
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.tick().finally(() => this.schedule(this.options.syncMs ?? 10_000));
    }, ms);
    this.timer.unref();
  }

  private async step(): Promise<void> {
    this.warnWhenFull();
    try {
      if (this.share) {
        this.leader = this.crawler ? await this.share.holdLease() : false;
        await this.syncFromShare();
      }
      if (!this.crawler || (this.share && !this.leader) || !this.passDue()) return;
      const renew = this.share ? this.keepLease() : undefined;
      try {
        await this.crawler.runPass();
      } finally {
        if (renew) clearInterval(renew);
      }
      await this.publish();
    } catch (error) {
      this.options.logger.warn({ err: errorFields(error) }, 'catalogue schedule step failed');
    }
  }

  private warnWhenFull(): void {
    if (this.warnedFull || !this.store.full) return;
    this.warnedFull = true;
    this.options.logger.warn(
      { items: this.store.size, maxItems: this.store.maxItems },
      'catalogue index is full (CATALOGUE_MAX_ITEMS): new items are not indexed, the crawl stops and word searches go to the ERP',
    );
  }

  private passDue(): boolean {
    // A full index would turn away what a pass brings: no pass until a snapshot replaces it.
    if (this.store.full) return false;
    const at = this.store.state.lastFullPassAt;
    return at === undefined || this.now() - at >= this.options.refreshMs;
  }

  /** Renews the lease during a long pass; a lost lease stops the pass at its next search. */
  private keepLease(): NodeJS.Timeout {
    const timer = setInterval(
      () => {
        this.share?.holdLease().then(
          (held) => {
            this.leader = held;
          },
          () => {
            this.leader = false;
          },
        );
      },
      (this.options.leaseMs ?? 30_000) / 3,
    );
    timer.unref();
    return timer;
  }

  private async syncFromShare(): Promise<void> {
    if (!this.share) return;
    const version = await this.share.publishedVersion();
    if (version === undefined || version <= this.loadedVersion) return;
    const snapshot = await this.share.fetch();
    if (!snapshot) return;
    // Rows the app fetched since (user lookups) are fresher than the snapshot's: keep them.
    const newer = [...this.store.all()].filter(
      (item) => item.seenAt > (snapshot.state.lastFullPassAt ?? 0),
    );
    this.store.load(snapshot);
    for (const item of newer) {
      const known = this.store.get(item.id);
      if (!known || known.seenAt < item.seenAt) this.store.restore(item);
    }
    this.loadedVersion = version;
  }

  private async publish(): Promise<void> {
    const snapshot = this.store.snapshot();
    if (this.share && this.leader) {
      const version = this.now();
      await this.share.publish(snapshot, version);
      this.loadedVersion = version;
    }
    if (this.options.file) await saveSnapshotFile(this.options.file, snapshot);
  }

  private registerMetrics(registry: Registry): void {
    const status = () => this.status();
    new Gauge({
      name: 'catalogue_items',
      help: 'Items held in the catalogue index',
      registers: [registry],
      collect() {
        this.set(status().items);
      },
    });
    new Gauge({
      name: 'catalogue_full',
      help: '1 when the index turned items away at CATALOGUE_MAX_ITEMS (it is then never complete)',
      registers: [registry],
      collect() {
        this.set(status().full ? 1 : 0);
      },
    });
    new Gauge({
      name: 'catalogue_coverage_ratio',
      help: 'Share of the ERP catalogue held in the index (when the ERP gave its total)',
      registers: [registry],
      collect() {
        const coverage = status().coverage;
        this.set(coverage ?? (status().complete ? 1 : 0));
      },
    });
    new Gauge({
      name: 'catalogue_last_full_pass_timestamp_seconds',
      help: 'When the last complete catalogue crawl pass finished (0: never)',
      registers: [registry],
      collect() {
        this.set((status().lastFullPassAt?.getTime() ?? 0) / 1000);
      },
    });
    const progress = () => this.crawler?.progress();
    new Gauge({
      name: 'catalogue_crawl_searches',
      help: 'Searches the catalogue crawl has sent since start',
      registers: [registry],
      collect() {
        this.set(progress()?.searches ?? 0);
      },
    });
  }
}
