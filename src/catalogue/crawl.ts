/**
 * The background crawl that fills the catalogue index within a share of the search budget.
 *
 * The spec does not say whether the ERP accepts a search without words, so a pass first asks
 * once (and remembers the answer):
 * - without words allowed: the unfiltered search paged to its end holds the whole catalogue;
 *   then category ids 1, 2, … are probed (first page only: the items are already held) to
 *   learn each id's name, which the ERP's rows never carry;
 * - words required: category ids are probed with a broad seed word ("e", then "a"), each
 *   paged to its end, and the pass then widens with seed letters and the words seen in
 *   descriptions, most frequent first, until a few searches in a row bring nothing new.
 * Probing stops after a run of empty ids once every category name seen has its id.
 * Every search waits for the budget port (its share, no user waiting) before it is sent.
 */
import { BadRequestError } from '../erp/errors.js';
import type { ErpApi, ItemSearchEnvelope, ItemSearchParams } from '../erp/schemas.js';
import { type AppLogger, errorFields } from '../log/logger.js';
import type { BackgroundBudget } from '../lookup/background.js';
import { matchItems } from './match.js';
import type { CatalogueStore } from './store.js';

const CRAWL_PAGE = 100;
/** Broad seeds after the category probes' own ("e", "a"): one letter finds most items. */
const SEEDS = ['o', 'i', 'u', 'r', 's', 't', '0', '1', '2'];
const CATEGORY_SEEDS = ['e', 'a'];
/** Stop widening after this many searches in a row found nothing new. */
const NOTHING_NEW_RUN = 3;
/** Empty category ids in a row after which probing stops (once every name has its id). */
const EMPTY_IDS_RUN = 3;
const MAX_CATEGORY_ID = 500;
const MAX_SEARCHES_PER_PASS = 2_000;
/** Deep offsets are where ERPs get slow or refuse: a query this deep is split by words instead. */
const MAX_OFFSET = 10_000;
/** How often to look again while users are waiting or the share is spent. */
const POLL_MS = 250;

interface PassSummary {
  searches: number;
  newItems: number;
  /** False when the pass was stopped (shutdown, lost lease) or failed part-way. */
  finished: boolean;
}

export interface CrawlProgress {
  running: boolean;
  passes: number;
  searches: number;
  lastPass: PassSummary | undefined;
}

interface CrawlerOptions {
  store: CatalogueStore;
  budget: BackgroundBudget;
  /** The raw ERP: the crawl feeds the store itself, with the category id it asked for. */
  erp: Pick<ErpApi, 'searchItems'>;
  logger: AppLogger;
  now?: () => number;
  /** True while this replica may crawl (the Redis lease); checked before every search. */
  mayContinue?: () => boolean;
}

class Stopped extends Error {}

export class CatalogueCrawler {
  private stopped = false;
  private running = false;
  private passes = 0;
  private searches = 0;
  private lastPass: PassSummary | undefined;
  private readonly wakers = new Set<() => void>();
  private readonly now: () => number;

  constructor(private readonly options: CrawlerOptions) {
    this.now = options.now ?? Date.now;
  }

  progress(): CrawlProgress {
    return {
      running: this.running,
      passes: this.passes,
      searches: this.searches,
      lastPass: this.lastPass,
    };
  }

  stop(): void {
    this.stopped = true;
    for (const wake of this.wakers) wake();
  }

  /** One pass over the catalogue; never rejects. */
  async runPass(): Promise<PassSummary> {
    if (this.running) return { searches: 0, newItems: 0, finished: false };
    this.running = true;
    const pass = new Pass(this.now());
    try {
      if (this.options.store.state.wordless !== false) await this.probeWordless(pass);
      if (this.options.store.state.wordless === true) {
        await this.probeCategories(pass, [undefined]);
      } else {
        await this.probeCategories(pass, CATEGORY_SEEDS);
        await this.widen(pass);
      }
      this.options.store.state.lastFullPassAt = this.now();
      pass.finished = true;
    } catch (error) {
      if (!(error instanceof Stopped)) {
        this.options.logger.warn({ err: errorFields(error) }, 'catalogue crawl pass stopped early');
      }
    } finally {
      this.running = false;
      this.passes += 1;
    }
    this.lastPass = { searches: pass.searches, newItems: pass.newItems, finished: pass.finished };
    this.options.logger.info(
      { ...this.lastPass, items: this.options.store.size },
      'catalogue crawl pass',
    );
    return this.lastPass;
  }

  private async probeWordless(pass: Pass): Promise<void> {
    try {
      const total = await this.pageToEnd(pass, { keywords: [] });
      this.options.store.state.wordless = true;
      if (total !== undefined) this.options.store.state.knownTotal = total;
    } catch (error) {
      if (!(error instanceof BadRequestError)) throw error;
      // "q is required": remembered, so later passes do not spend a search asking again.
      this.options.store.state.wordless = false;
    }
  }

  /** Category ids 1, 2, …: learns id → name from the rows of a search filtered by each. */
  private async probeCategories(pass: Pass, seeds: ReadonlyArray<string | undefined>) {
    let emptyRun = 0;
    for (let id = 1; id <= MAX_CATEGORY_ID; id += 1) {
      let hit = false;
      for (const seed of seeds) {
        const keywords = seed === undefined ? [] : [seed];
        // Without words the unfiltered search already brought every item: one page names the id.
        const firstPageOnly = seed === undefined;
        await this.pageToEnd(pass, { keywords, category: id }, firstPageOnly);
        if (this.options.store.categoryName(id) !== undefined) {
          hit = true;
          break;
        }
      }
      emptyRun = hit ? 0 : emptyRun + 1;
      if (emptyRun >= EMPTY_IDS_RUN && this.everyCategoryNamed()) return;
      if (emptyRun >= EMPTY_IDS_RUN * 3) return;
    }
  }

  private everyCategoryNamed(): boolean {
    return this.options.store.categories().every((category) => category.id !== undefined);
  }

  /** Seeds, then description words by frequency, until searches stop bringing new items. */
  private async widen(pass: Pass): Promise<void> {
    let nothingNew = 0;
    const tried = new Set<string>();
    for (;;) {
      const word = SEEDS.find((seed) => !tried.has(seed)) ?? this.nextWord(tried);
      if (word === undefined) return;
      tried.add(word);
      const before = pass.newItems;
      await this.pageToEnd(pass, { keywords: [word] });
      nothingNew = pass.newItems === before ? nothingNew + 1 : 0;
      if (nothingNew >= NOTHING_NEW_RUN) return;
    }
  }

  private nextWord(tried: ReadonlySet<string>): string | undefined {
    const counts = new Map<string, number>();
    for (const item of this.options.store.all()) {
      for (const word of item.description.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
        if (word.length >= 3 && !tried.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
      }
    }
    let best: string | undefined;
    let bestCount = 0;
    for (const [word, count] of counts) {
      if (count > bestCount) [best, bestCount] = [word, count];
    }
    return best;
  }

  /** Pages one query to its end; returns the ERP's count when it is clearly a total. */
  private async pageToEnd(
    pass: Pass,
    query: Pick<ItemSearchParams, 'keywords' | 'category'>,
    firstPageOnly = false,
  ): Promise<number | undefined> {
    let total: number | undefined;
    for (let offset = 0; offset < MAX_OFFSET; offset += CRAWL_PAGE) {
      const envelope = await this.search(pass, { ...query, limit: CRAWL_PAGE, offset });
      pass.newItems += this.options.store.addRows(envelope.items, this.now(), query.category);
      // A full index (CATALOGUE_MAX_ITEMS) turns new items away: further searches are wasted.
      if (this.options.store.full) throw new Stopped();
      if (envelope.count > envelope.items.length + offset) total = envelope.count;
      // A short page is the end; the count is never trusted to say there is more.
      if (envelope.items.length < CRAWL_PAGE || firstPageOnly) break;
      // A count that is clearly a total, and this pass already saw that many matches of
      // this very query (checked with the ERP's own rules): the rest of the pages bring
      // nothing new, so they are not worth a search each.
      if (total !== undefined && this.heldMatches(query, pass.startedAt) >= total) break;
    }
    return total;
  }

  /** Matches seen during this pass: a refresh pass still refreshes every item's figures. */
  private heldMatches(
    query: Pick<ItemSearchParams, 'keywords' | 'category'>,
    since: number,
  ): number {
    const matches = matchItems(this.options.store, {
      words: query.keywords,
      category: query.category,
    });
    return matches?.filter((item) => item.seenAt >= since).length ?? 0;
  }

  private async search(pass: Pass, params: ItemSearchParams): Promise<ItemSearchEnvelope> {
    if (pass.searches >= MAX_SEARCHES_PER_PASS) throw new Stopped();
    await this.turn();
    pass.searches += 1;
    this.searches += 1;
    const envelope = await this.options.budget.run((signal) =>
      this.options.erp.searchItems(params, { signal, background: true }),
    );
    return envelope;
  }

  /** Waits until the budget lets the crawl send a search: no user waiting, share not spent. */
  private async turn(): Promise<void> {
    for (;;) {
      if (this.stopped || this.options.mayContinue?.() === false) throw new Stopped();
      const waitMs = this.options.budget.usersWaiting() ? POLL_MS : this.options.budget.waitMs();
      if (waitMs <= 0) return;
      await this.sleep(Math.min(waitMs, 5_000));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(1, ms));
      this.wakers.add(done);
    });
  }
}

class Pass {
  constructor(readonly startedAt: number) {}
  searches = 0;
  newItems = 0;
  finished = false;
}
