/**
 * The catalogue crawl against the sandbox ERP over HTTP, with a compressed window (0.4 s) and
 * tight limits: it never causes a 429, holds back while a user waits, finishes a pass
 * whether or not the ERP accepts a search without words, learns category ids, and refreshes.
 * The catalogue is a quarter of the sandbox's (500 items): a pass still spans several windows,
 * in a quarter of the time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalogue } from '../../src/catalogue/catalogue.js';
import type { ErpClient } from '../../src/erp/client.js';
import type { LookupService } from '../../src/lookup/types.js';
import { generateSandboxData } from '../../src/sandbox/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { crawlSide } from './rig.js';

const WINDOW_MS = 400;
const SEARCH_LIMIT = 20;
const FULL = generateSandboxData(5);
const DATA = { ...FULL, items: FULL.items.slice(0, 500) };

interface Rig {
  sandbox: RunningSandbox;
  client: ErpClient;
  lookup: LookupService;
  catalogue: Catalogue;
}

let rigs: Rig[] = [];

afterEach(async () => {
  for (const rig of rigs) {
    await rig.catalogue.close();
    await rig.lookup.close();
    await rig.client.close();
    await rig.sandbox.close();
  }
  rigs = [];
});

async function rig(requireQuery: boolean, maxItems?: number): Promise<Rig> {
  const sandbox = await startSandbox({
    seed: 5,
    data: DATA,
    limits: {
      getItem: 60,
      getContact: 60,
      searchItems: SEARCH_LIMIT,
      searchContact: 20,
      windowMs: WINDOW_MS,
    },
    behaviour: { requireQuery },
    faults: { latencyMs: 5, jitterMs: 5 },
  });
  const { client, lookup, catalogue } = crawlSide({
    sandbox,
    windowMs: WINDOW_MS,
    searchLimit: SEARCH_LIMIT,
    maxItems,
  });
  const built = { sandbox, client, lookup, catalogue };
  rigs.push(built);
  return built;
}

describe.each([true, false])('crawl (ERP requires words: %s)', (requireQuery) => {
  it('indexes the whole catalogue within its share, learns category ids, never a 429', async () => {
    const { sandbox, catalogue } = await rig(requireQuery);
    await catalogue.tick();
    const progress = catalogue.crawlProgress();
    expect(progress?.lastPass?.finished).toBe(true);
    expect(sandbox.stats().rateLimited).toBe(0);
    expect(catalogue.store.size).toBe(sandbox.data.items.length);
    expect(catalogue.status().complete).toBe(true);
    // /readyz's JSON: the status without the crawl flag, the pass's time as a string.
    const status = catalogue.status();
    expect(catalogue.readiness()).toEqual({
      items: status.items,
      maxItems: status.maxItems,
      full: false,
      complete: true,
      coverage: status.coverage ?? null,
      lastFullPassAt: status.lastFullPassAt?.toISOString(),
      role: status.role,
    });
    expect(catalogue.store.state.wordless).toBe(!requireQuery);
    // Every category got its id, as the sandbox numbers them.
    for (const category of catalogue.categories()) {
      const sample = sandbox.data.items.find((item) => item.record.category === category.name);
      expect(category.id).toBe(sample?.categoryId);
    }
  }, 60_000);
});

describe('a bounded index (CATALOGUE_MAX_ITEMS)', () => {
  it('stops the crawl once full, says so in its status, and never calls itself complete', async () => {
    const { sandbox, catalogue } = await rig(false, 150);
    await catalogue.tick();
    const progress = catalogue.crawlProgress();
    expect(progress?.lastPass?.finished).toBe(false);
    expect(catalogue.store.size).toBe(150);
    expect(catalogue.status()).toMatchObject({ items: 150, maxItems: 150, full: true });
    expect(catalogue.status().complete).toBe(false);
    expect(catalogue.readiness()).toMatchObject({ full: true, complete: false });
    expect(catalogue.searchPage({ words: ['widget'] }, 0, 10)).toBeUndefined();
    // Full: no further pass spends the search budget.
    const searches = progress?.searches ?? 0;
    await catalogue.tick();
    expect(catalogue.crawlProgress()?.searches).toBe(searches);
    expect(sandbox.data.items.length).toBeGreaterThan(150);
  }, 60_000);
});

describe('crawl and users', () => {
  it('holds back while a user waits, so user searches are never queued behind it', async () => {
    const { sandbox, lookup, catalogue } = await rig(true);
    const pass = catalogue.tick();
    const crawled = () => catalogue.crawlProgress()?.searches ?? 0;
    for (let i = 0; i < 4; i += 1) {
      // Each user search arrives after one more crawl search: in the middle of the pass.
      const seen = crawled();
      await vi.waitFor(() => expect(crawled()).toBeGreaterThan(seen), { timeout: 10_000 });
      // The crawl never takes more than a quarter, nor the last free slot: the budget's own
      // count has a slot for a user at once, and the user's search takes it.
      expect(lookup.expectedWaitMs('searchItems')).toBe(0);
      await lookup.searchItems({ words: [`user${i}`, 'x'] }, 0, { requester: `U${i}` });
    }
    await pass;
    expect(sandbox.stats().rateLimited).toBe(0);
    expect(catalogue.crawlProgress()?.lastPass?.finished).toBe(true);
  }, 60_000);

  it('refreshes once the refresh period has passed, and answers /stock words from the index', async () => {
    const { sandbox, catalogue } = await rig(false);
    await catalogue.tick();
    expect(catalogue.crawlProgress()?.passes).toBe(1);
    await catalogue.tick();
    expect(catalogue.crawlProgress()?.passes).toBe(1); // not due yet
    catalogue.store.state.lastFullPassAt = Date.now() - 61_000;
    await catalogue.tick();
    expect(catalogue.crawlProgress()?.passes).toBe(2);
    expect(sandbox.stats().rateLimited).toBe(0);

    const before = sandbox.stats().requests.searchItems ?? 0;
    const page = catalogue.searchPage({ words: ['widget'] }, 0, 10);
    expect(page?.page.rows.length).toBeGreaterThan(0);
    for (const row of page?.page.rows ?? []) {
      expect(`${row.code} ${row.description}`.toLowerCase()).toContain('widget');
    }
    expect(sandbox.stats().requests.searchItems ?? 0).toBe(before);
  }, 60_000);
});
