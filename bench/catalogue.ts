/**
 * Catalogue index benchmark (issue 16): build time and heap for 100,000 synthetic items,
 * typeahead p99 in process, and upstream searches per 100 keystrokes. Run by `npm run bench`
 * after the lookup benchmark (`--only catalogue`), or alone: `tsx bench/catalogue.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CatalogueStore } from '../src/catalogue/store.js';
import { Suggester } from '../src/catalogue/suggest.js';
import type { ItemSearchRow } from '../src/erp/schemas.js';
import type { LookupService } from '../src/lookup/types.js';
import { percentile } from './workload.js';

const ITEMS = 100_000;
const WORDS = [
  'widget',
  'gizmo',
  'sprocket',
  'flange',
  'bolt',
  'nut',
  'washer',
  'screw',
  'rivet',
  'anchor',
  'bearing',
  'roller',
  'bushing',
  'pillow',
  'block',
  'oring',
  'gasket',
  'seal',
  'kit',
  'hose',
  'fitting',
  'cylinder',
  'coupling',
  'filter',
  'valve',
  'regulator',
  'contactor',
  'relay',
  'breaker',
  'switch',
  'terminal',
  'steel',
  'brass',
  'nylon',
  'zinc',
  'stainless',
  'heavy',
  'duty',
  'small',
  'large',
  'blue',
  'red',
  'green',
  'black',
  'white',
  'assembly',
  'module',
];
const PREFIXES = ['WID', 'FST', 'BRG', 'SEL', 'HYD', 'PNU', 'ELE', 'ASM', 'TOL', 'SAF'];
const CATEGORIES = PREFIXES.map((p) => `${p} category`);

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 16_807) % 2_147_483_647;
    return s / 2_147_483_647;
  };
}

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)] as T;
}

function syntheticRows(count: number): ItemSearchRow[] {
  const rnd = random(42);
  return Array.from({ length: count }, (_, i) => {
    const p = Math.floor(rnd() * PREFIXES.length);
    return {
      id: i + 1,
      code: `${PREFIXES[p]}-${String(i).padStart(6, '0')}`,
      description: `${pick(rnd, WORDS)} ${pick(rnd, WORDS)} ${pick(rnd, WORDS)} M${Math.floor(rnd() * 20)}`,
      category_name: CATEGORIES[p] ?? '',
      price: Math.round(rnd() * 10_000) / 100,
      supplier_name: `Supplier ${Math.floor(rnd() * 200)}`,
      status_label: rnd() < 0.05 ? 'Disabled' : 'Active',
      soh: Math.floor(rnd() * 500),
      allocated: Math.floor(rnd() * 50),
      onorder: Math.floor(rnd() * 100),
      available: Math.floor(rnd() * 450),
      has_bom: rnd() < 0.1,
      has_kit: rnd() < 0.1,
    };
  });
}

/** Typed text, keystroke by keystroke: "b", "bl", "blu", "blue", "blue ", "blue w", … */
function keystrokes(queries: readonly string[]): string[] {
  return queries.flatMap((q) => Array.from({ length: q.length }, (_, i) => q.slice(0, i + 1)));
}

function gc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const mib = (bytes: number) => bytes / 1024 / 1024;

export interface CatalogueFigures {
  report: string;
  /** Upstream searches per 100 keystrokes with a complete index (a count: the target is ≤ 5). */
  searchesPer100Keystrokes: number;
}

export async function runCatalogueBench(): Promise<CatalogueFigures> {
  const collect = gc();
  const rows = syntheticRows(ITEMS);
  collect();
  // The JS heap and the typed arrays' buffers (outside it), where the store keeps item figures.
  const used = () => {
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const heapBefore = used();
  const started = performance.now();
  const store = new CatalogueStore();
  for (let i = 0; i < rows.length; i += 1_000) store.addRows(rows.slice(i, i + 1_000), Date.now());
  const buildMs = performance.now() - started;
  collect();
  // Typed arrays outgrown while filling are released after a collection, not during it.
  await new Promise((resolve) => setTimeout(resolve, 100));
  collect();
  // The rows array is the ERP's answer, kept by the test only: measure what the index adds.
  const heapMiB = mib(used() - heapBefore);

  const rnd = random(7);
  const queries = Array.from({ length: 5_000 }, () => {
    const word = pick(rnd, WORDS);
    const roll = rnd();
    // A code as people type it: a prefix of a real one ("WID-0", "WID-00123").
    if (roll < 0.2) return pick(rnd, rows).code.slice(0, 3 + Math.floor(rnd() * 8));
    if (roll < 0.4) return `${word} ${pick(rnd, WORDS).slice(0, 3)}`;
    return word.slice(0, 2 + Math.floor(rnd() * (word.length - 1)));
  });
  for (const q of queries.slice(0, 200)) store.suggest(q, { limit: 25 }); // warm up
  const latencies = queries.map((q) => {
    const t = performance.now();
    store.suggest(q, { limit: 25 });
    return performance.now() - t;
  });
  const p99 = percentile(latencies, 99);
  const p50 = percentile(latencies, 50);

  // Keystroke economy: a cold index (nothing crawled yet) and a complete one.
  const typed = keystrokes(
    Array.from({ length: 40 }, () => `${pick(rnd, WORDS)} ${pick(rnd, WORDS)}`),
  ).slice(0, 100);
  const economy = async (over: CatalogueStore, complete: boolean) => {
    let upstream = 0;
    const lookup: Pick<LookupService, 'searchItems'> = {
      searchItems: async () => {
        upstream += 1;
        return {
          data: {
            rows: [],
            offset: 0,
            pageSize: 10,
            hasPrevious: false,
            hasNext: true,
            total: undefined,
          },
          freshness: { fetchedAt: new Date(), fromCache: false, stale: false },
        };
      },
    };
    const suggester = new Suggester({
      store: over,
      lookup,
      complete: () => complete,
      waitMs: 0,
      coverMs: 60_000,
    });
    for (const text of typed) await suggester.suggest(text, { limit: 25 });
    return upstream;
  };
  const complete = await economy(store, true);
  const filled = await economy(store, false);
  const cold = await economy(new CatalogueStore(), false);

  const check = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const report = [
    '# Catalogue index benchmark',
    '',
    `Run ${new Date().toISOString()}, Node ${process.version}, load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores. FlexSearch (forward tokenizer, LatinBalance encoder) over ${ITEMS.toLocaleString('en-US')} synthetic items; typeahead answers the 25 best. Index heap: the JS heap after GC plus typed arrays' buffers.`,
    '',
    '| target | measured | |',
    '|---|---|---|',
    `| index build, 100,000 items | ${(buildMs / 1000).toFixed(1)} s | |`,
    `| index heap, 100,000 items < 60 MiB | ${heapMiB.toFixed(1)} MiB | ${check(heapMiB < 60)} |`,
    `| suggestion p99 in process < 5 ms (5,000 typed prefixes; p50 ${p50.toFixed(2)} ms) | ${p99.toFixed(2)} ms | ${check(p99 < 5)} |`,
    `| upstream searches per 100 keystrokes ≤ 5, index complete | ${complete} | ${check(complete <= 5)} |`,
    `| upstream searches per 100 keystrokes, index filled but no complete pass yet | ${filled} | ${check(filled <= 5)} |`,
    `| upstream searches per 100 keystrokes, index empty (cold start; two-word queries, every ERP answer "full") | ${cold} | ${cold <= 5 ? 'PASS' : 'cold start only'} |`,
    '',
  ].join('\n');
  return { report, searchesPer100Keystrokes: complete };
}

// Alone (`tsx bench/catalogue.ts`): print it and keep it with the other results (ignored by git).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { report } = await runCatalogueBench();
  process.stdout.write(`\n${report}\n`);
  const results = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(results, { recursive: true });
  writeFileSync(`${results}catalogue.md`, report);
}
