/**
 * What issue 33 adds to the watches, measured on each store (sql.js in memory, as the
 * engine the embedded default uses on this Node, and PostgreSQL in a database made for the
 * run): the observed history's rows and bytes per watched item after 30 simulated days, and
 * the daily digest's cost for a full channel. Simulated time: readings are handed to the real
 * tracker with the times they would have, so no wait is involved and no ERP is called (the
 * history is written from readings the checks already make; the check rows of the section
 * above measure their getItem calls with it).
 */
import { sql } from 'kysely';
import pg from 'pg';
import type { Item } from '../src/erp/schemas.js';
import { createLogger } from '../src/log/logger.js';
import type { SlackMessage } from '../src/views/message.js';
import {
  openWatchStore,
  type WatchStore,
  type WatchStoreOptions,
} from '../src/watches/database.js';
import { DigestRepository, WatchDigests } from '../src/watches/digests.js';
import { HistoryRepository } from '../src/watches/history.js';
import { WatchNotifier } from '../src/watches/notifier.js';
import type { WatchPoster } from '../src/watches/poster.js';
import { WatchRepository } from '../src/watches/repository.js';
import { WatchTracker } from '../src/watches/tracker.js';
import { percentile, seeded } from './workload.js';

const DAY = 24 * 60 * 60_000;
const logger = createLogger({ level: 'silent' });

export interface StoryRow {
  store: string;
  /** Readings every `intervalMinutes` for 30 days, use and restocks at random. */
  history: {
    items: number;
    intervalMinutes: number;
    readings: number;
    rowsPerItem: number;
    bytesPerItem: number;
  };
  /** A reading a minute (WATCH_MIN_INTERVAL_SECONDS 60; 10 with --quick), the quantity moving at every one. */
  worst: { readings: number; rowsPerItem: number } | undefined;
  digest: {
    watches: number;
    historyRows: number;
    msP50: number;
    msMax: number;
    posts: number;
    erpCalls: number;
  };
}

function item(code: string, id: number, available: number): Item {
  const branch = { id: 1, name: 'Perth', soh: available, allocated: 0, onorder: 0, available };
  return {
    id,
    status: 1,
    status_label: 'Active',
    code,
    category: 'Bench',
    description: `Bench item ${code}`,
    cost: 1,
    primarysupplier: 'Bench',
    supplierCodes: [],
    soh: available,
    allocated: 0,
    onorder: 0,
    available,
    has_bom: false,
    has_kit: false,
    bom: [],
    kits: [],
    branches: [branch],
  } as Item;
}

const countingPoster = (): WatchPoster & { posts: number } => {
  const poster = {
    posts: 0,
    async post(_channel: string, _message: SlackMessage) {
      poster.posts += 1;
      return { ts: `1.${poster.posts}` };
    },
    async update() {},
    async delete() {},
  };
  return poster;
};

async function simulate(
  store: WatchStore,
  items: number,
  intervalMinutes: number,
  moveEveryReading: boolean,
  seed: number,
): Promise<{ readings: number; rowsPerItem: number }> {
  const repo = new WatchRepository(store.db);
  const history = new HistoryRepository(store.db);
  const tracker = new WatchTracker(
    async () => repo,
    async () => history,
  );
  const random = seeded(seed);
  const t0 = Date.UTC(2026, 9, 1);
  const stock = new Map<string, number>();
  for (let i = 0; i < items; i += 1) {
    const code = `HIST-${seed}-${i}`;
    stock.set(code, 500);
    await repo.upsert({
      teamId: 'T1',
      channelId: 'C0BENCH',
      creatorId: 'U0BENCH',
      itemCode: code,
      itemId: i + 1,
      description: code,
      branch: undefined,
      direction: 'below',
      threshold: 0.5,
      available: 500,
      onOrder: 0,
      past: false,
      at: t0,
    });
  }
  let readings = 0;
  for (
    let at = t0 + intervalMinutes * 60_000;
    at <= t0 + 30 * DAY;
    at += intervalMinutes * 60_000
  ) {
    for (const [code, before] of stock) {
      // About 20 used a day in orders of 1 to 5; a restock of 300 when it runs low.
      const perReading = (20 * intervalMinutes) / (24 * 60);
      let after = before;
      if (moveEveryReading) after = before + (random() < 0.5 ? -1 : 1);
      else if (random() < perReading / 3) after = before - Math.ceil(random() * 5);
      if (after < 30) after += 300;
      stock.set(code, after);
      await tracker.observe(item(code, 1, after), at);
      readings += 1;
    }
  }
  const { rows } = (
    await sql<{ rows: number | string }>`select count(*) as rows from watch_history`.execute(
      store.db,
    )
  ).rows[0] ?? { rows: 0 };
  return { readings: readings / items, rowsPerItem: Number(rows) / items };
}

async function tableBytes(store: WatchStore, fill: () => Promise<void>): Promise<number> {
  if (store.dialect === 'postgres') {
    await fill();
    await sql`analyze watch_history`.execute(store.db);
    const row = (
      await sql<{ bytes: string }>`select pg_total_relation_size('watch_history') as bytes`.execute(
        store.db,
      )
    ).rows[0];
    return Number(row?.bytes ?? 0);
  }
  const size = async () => {
    const row = (
      await sql<{
        bytes: number;
      }>`select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(
        store.db,
      )
    ).rows[0];
    return Number(row?.bytes ?? 0);
  };
  const before = await size();
  await fill();
  await sql`vacuum`.execute(store.db);
  return (await size()) - before;
}

async function digestCost(store: WatchStore, sourceCode: string, quick: boolean) {
  const repo = new WatchRepository(store.db);
  const history = new HistoryRepository(store.db);
  const poster = countingPoster();
  const notifier = new WatchNotifier({
    repo: async () => repo,
    history: async () => history,
    poster,
    logger,
  });
  const t0 = Date.UTC(2026, 9, 31, 8, 0);
  let clock = t0 - 60_000;
  const digests = new WatchDigests({
    digests: async () => new DigestRepository(store.db),
    watchesOf: (channelId) => repo.activeWhere({ channelId }),
    coverOf: (watch) => notifier.coverOf(watch),
    poster,
    logger,
    now: () => clock,
  });
  // A full channel (WATCH_MAX_PER_CHANNEL 50), every watch past, each item with the history
  // one item kept over 30 days above.
  const watches = 50;
  for (let i = 0; i < watches; i += 1) {
    const code = `DIGEST-${i}`;
    await repo.upsert({
      teamId: 'T1',
      channelId: 'C0DIGEST',
      creatorId: 'U0BENCH',
      itemCode: code,
      itemId: 1000 + i,
      description: code,
      branch: undefined,
      direction: 'below',
      threshold: 1000,
      available: 40 + i,
      onOrder: 0,
      past: true,
      at: t0 - 60_000,
    });
    await sql`insert into watch_history (item_code, branch_key, at, available)
      select ${code}, branch_key, at, available from watch_history where item_code = ${sourceCode}`.execute(
      store.db,
    );
  }
  const rows = Number(
    (
      await sql<{
        n: number | string;
      }>`select count(*) as n from watch_history where item_code like 'DIGEST-%'`.execute(store.db)
    ).rows[0]?.n ?? 0,
  );
  await digests.turnOn({
    channelId: 'C0DIGEST',
    teamId: 'T1',
    userId: 'U0BENCH',
    minuteOfDay: 8 * 60,
    zone: 'UTC',
  });
  const times: number[] = [];
  for (let day = 0; day < (quick ? 3 : 7); day += 1) {
    clock = t0 + day * DAY + 5_000;
    const started = performance.now();
    await digests.send();
    times.push(performance.now() - started);
  }
  return {
    watches,
    historyRows: rows,
    msP50: percentile(times, 50),
    msMax: Math.max(...times),
    posts: poster.posts,
    erpCalls: 0,
  };
}

async function storeRun(
  name: string,
  options: WatchStoreOptions,
  quick: boolean,
): Promise<StoryRow> {
  const store = await openWatchStore(options);
  try {
    const items = quick ? 3 : 10;
    let measured = { readings: 0, rowsPerItem: 0 };
    const bytes = await tableBytes(store, async () => {
      measured = await simulate(store, items, 50, false, 1);
    });
    let worst: StoryRow['worst'];
    if (store.dialect === 'sqlite') {
      const before = Number(
        (
          await sql<{ n: number | string }>`select count(*) as n from watch_history`.execute(
            store.db,
          )
        ).rows[0]?.n ?? 0,
      );
      const run = await simulate(store, 1, quick ? 10 : 1, true, 2);
      worst = { readings: run.readings, rowsPerItem: run.rowsPerItem * 1 - before };
    }
    const digest = await digestCost(store, 'HIST-1-0', quick);
    return {
      store: name,
      history: {
        items,
        intervalMinutes: 50,
        readings: measured.readings,
        rowsPerItem: measured.rowsPerItem,
        bytesPerItem: bytes / items,
      },
      worst,
      digest,
    };
  } finally {
    await store.close();
  }
}

export async function runWatchStoryBench(
  quick: boolean,
  progress: (line: string) => void,
): Promise<StoryRow[]> {
  const rows: StoryRow[] = [];
  progress('Watches: 30 simulated days of history and a full channel digest, sql.js...');
  rows.push(
    await storeRun(
      'embedded, sql.js',
      { kind: 'sqlite', dataDir: undefined, driver: 'sql.js' },
      quick,
    ),
  );
  const admin = 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `bench_story_${process.pid}_${Date.now()}`;
  const client = new pg.Client({ connectionString: admin });
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${database}`);
  } catch {
    progress('Watches: PostgreSQL not reachable; its history rows are not measured.');
    await client.end().catch(() => {});
    return rows;
  }
  await client.end();
  try {
    progress('Watches: the same on PostgreSQL...');
    const url = new URL(admin);
    url.pathname = `/${database}`;
    rows.push(await storeRun('PostgreSQL', { kind: 'postgres', url: url.toString() }, quick));
  } finally {
    const drop = new pg.Client({ connectionString: admin });
    await drop.connect();
    await drop.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await drop.end();
  }
  return rows;
}
