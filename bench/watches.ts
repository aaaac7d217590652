/**
 * Watches under load: 1,000 watches over 300 items on the sandbox ERP, through the real lookup
 * service, ledger and checker; then the app's memory with watches loaded, on each store.
 *
 * The checks run with time compressed 60x, as in the lookup section: one ERP minute is one
 * second of wall time (the ledger's and the sandbox's window), and the checker's clock runs 60
 * times faster than the wall clock, so a check interval of 50 minutes passes in 50 seconds.
 * Every figure is read in ERP time (a compressed hour is an hour of the app's budget).
 *
 * The memory runs start the app itself, the way `npm start` does, with its watches already in
 * the store: the embedded SQLite file in DATA_DIR (sql.js on this Node, node:sqlite on Node 24
 * when npx can provide it) and PostgreSQL in a database made for the run and dropped after.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Registry } from 'prom-client';
import { ErpClient } from '../src/erp/client.js';
import { ErpEvents } from '../src/erp/events.js';
import type { ErpApi, Item } from '../src/erp/schemas.js';
import { createLogger } from '../src/log/logger.js';
import type { BackgroundBudget } from '../src/lookup/background.js';
import { createUpstream, ledgerCheckBudget } from '../src/lookup/lanes.js';
import { createMetrics } from '../src/lookup/metrics.js';
import { lookupServiceOver } from '../src/lookup/service.js';
import { BusyError, type LookupService } from '../src/lookup/types.js';
import type { Upstream } from '../src/lookup/upstream.js';
import {
  generateSandboxData,
  moveSandboxStock,
  type SandboxData,
  startSandbox,
} from '../src/sandbox/index.js';
import type { SlackMessage } from '../src/views/message.js';
import { openWatchStore, type WatchStoreOptions } from '../src/watches/database.js';
import { checkIntervalSeconds, createWatches, feedWatches } from '../src/watches/index.js';
import type { WatchPoster } from '../src/watches/poster.js';
import type { WatchLimits } from '../src/watches/service.js';
import { SQLITE_FILE } from '../src/watches/sqlite.js';
import { appPool, BOT_TOKEN, closedLoop, SIGNING_SECRET, signedStock } from './load.js';
import { ERP_CONNECTIONS, GET_LIMIT, LATENCY, MINUTE } from './lookup.js';
import { type AppCommand, startApp } from './procs.js';
import { startSlackStub } from './slackStub.js';
import { runWatchStoryBench, type StoryRow } from './watchStory.js';
import { percentile, seeded } from './workload.js';

/** ERP milliseconds per wall millisecond. */
const SPEED = 60_000 / MINUTE;
const WATCHES = 1_000;
const ITEMS = 300;
/** 40 watches a channel, under WATCH_MAX_PER_CHANNEL's default of 50. */
const CHANNELS = 25;
const MiB = 1024 * 1024;
const logger = createLogger({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The app's defaults: WATCH_SHARE 0.1, WATCH_MIN_INTERVAL_SECONDS 60, 60 minutes, 50. */
export const WATCH_LIMITS: WatchLimits = {
  share: 0.1,
  getItemPerMinute: GET_LIMIT,
  minIntervalSeconds: 60,
  maxIntervalMinutes: 60,
  maxPerChannel: 50,
  maxPerUser: 20,
};

export interface WatchFigures {
  /** ERP minutes the checks ran for (the budget figures are scaled to an hour from it). */
  minutes: number;
  created: number;
  /** What the confirmation of the last watch showed, and what the checker computed. */
  intervalSeconds: { shown: number; checker: number };
  /** getItem calls in the measured span: the checker's, and users' lookups. */
  calls: {
    checks: number;
    users: number;
    perHourLimit: number;
    checkShare: number;
    /** Watched items read by a user's lookup instead (each counts as a check). */
    fromLookups: number;
  };
  rateLimited: number;
  alerts: {
    moved: number;
    alerted: number;
    withinTwoIntervals: number;
    /** ERP minutes from each stock move to its alert. */
    minutes: number[];
  };
  users: {
    withChecks: UserRun;
    alone: UserRun;
    /** Checks the checker began while a user's lookup waited in the queue (must be none). */
    checksWhileUsersWaited: number;
  };
  memory: MemoryRow[];
  /** Why a row is missing (node:sqlite without Node 24, PostgreSQL away). */
  skipped: string[];
  /** History and digest figures (issue 33), per store. */
  story: StoryRow[];
}

export interface UserRun {
  lookups: number;
  busy: number;
  errors: number;
  /** Wall milliseconds (×60 for ERP time). */
  p50Ms: number;
  p99Ms: number;
}

export interface MemoryRow {
  name: string;
  node: string;
  idleMiB: number;
  peakMiB: number;
  /** ERP getItem calls during the peak run, and alerts the app posted. */
  calls: number;
  alerts: number;
  /** How long the peak run took (with watches: until every item was read and alerted). */
  seconds: number;
}

/** Posts as Slack would, and remembers when (wall time) and what. */
class RecordingPoster implements WatchPoster {
  readonly posts: Array<{ at: number; channel: string; body: string }> = [];
  private seq = 0;

  async post(channel: string, message: SlackMessage): Promise<{ ts: string }> {
    this.seq += 1;
    this.posts.push({ at: performance.now(), channel, body: JSON.stringify(message) });
    return { ts: `1700000000.${String(this.seq).padStart(6, '0')}` };
  }

  async update(): Promise<void> {}

  async delete(): Promise<void> {}
}

interface Plan {
  code: string;
  channel: string;
  direction: 'below' | 'above';
  threshold: number;
  /** Index of the item (0..299): its watches' stagger position. */
  item: number;
}

const availableOf = (item: Item) => Math.max(0, item.soh - item.allocated);

/**
 * 1,000 watches over 300 items: the first 100 items have four, the others three, each in a
 * different channel; below half, below a quarter, above twice (plus 10) the quantity now,
 * and a fourth below a third, so none is past when made and a move to 0 crosses the belows.
 */
export function planWatches(codes: readonly string[], items: ReadonlyMap<string, Item>): Plan[] {
  const plans: Plan[] = [];
  codes.forEach((code, i) => {
    const item = items.get(code);
    if (!item) return;
    const a = availableOf(item);
    const kinds: Array<[Plan['direction'], number]> = [
      ['below', Math.ceil(a / 2)],
      ['below', Math.max(1, Math.floor(a / 4))],
      ['above', a * 2 + 10],
    ];
    if (i < WATCHES - ITEMS * 3) kinds.push(['below', Math.max(1, Math.ceil(a / 3))]);
    kinds.forEach(([direction, threshold], k) => {
      plans.push({ code, channel: `C${(i + 7 * k) % CHANNELS}`, direction, threshold, item: i });
    });
  });
  return plans;
}

/** Items whose stock is 4 or more (so a "below" watch can be armed), in the data's order. */
export function watchableCodes(data: SandboxData, count: number, skip = 0): string[] {
  return data.items
    .filter((i) => i.record.available >= 4)
    .slice(skip, skip + count)
    .map((i) => i.record.code);
}

/**
 * Fetches each item once, `batch` at a time and `pauseMs` apart (no ledger: nothing else runs;
 * half the sandbox's limit a window for the check run, so that a late batch on a loaded
 * machine never shares a window with the next; under the ERP pool's 80 connections always).
 */
async function fetchAll(
  client: ErpClient,
  codes: readonly string[],
  batch: number,
  pauseMs: number,
) {
  const items = new Map<string, Item>();
  for (let i = 0; i < codes.length; i += batch) {
    const began = performance.now();
    const got = await Promise.all(
      codes.slice(i, i + batch).map((code) => client.getItem({ code })),
    );
    for (const item of got) items.set(item.code, item);
    if (i + batch < codes.length) await sleep(Math.max(0, pauseMs - (performance.now() - began)));
  }
  return items;
}

/**
 * Makes the plan's watches in a store through the watch service (each confirmation posted),
 * watch by watch at `at(plan)`: the times of their first reading.
 */
async function populate(
  store: WatchStoreOptions,
  plans: readonly Plan[],
  items: ReadonlyMap<string, Item>,
  at: (plan: Plan) => number,
  poster: WatchPoster = new RecordingPoster(),
): Promise<{ created: number; intervalSeconds: number }> {
  let clock = 0;
  const never: BackgroundBudget = {
    usersWaiting: () => false,
    waitMs: () => Number.POSITIVE_INFINITY,
    run: () => Promise.reject(new Error('no checks while populating')),
  };
  const watches = createWatches({
    store,
    erp: { getItem: () => Promise.reject(new Error('no checks while populating')) },
    fetchItem: async (code) => {
      const item = items.get(code);
      if (!item) throw new Error(`${code} was not fetched`);
      return item;
    },
    budget: never,
    poster,
    limits: WATCH_LIMITS,
    logger,
    now: () => clock,
  });
  let created = 0;
  let intervalSeconds = 0;
  try {
    for (const plan of plans) {
      clock = at(plan);
      const made = await watches.service.create({
        teamId: 'T0BENCH',
        channelId: plan.channel,
        // A hundred people, three items each: none past WATCH_MAX_PER_USER (20).
        userId: `U0WATCH${plan.item % 100}`,
        code: plan.code,
        branch: undefined,
        direction: plan.direction,
        threshold: plan.threshold,
      });
      if (made.ok) {
        created += 1;
        intervalSeconds = made.intervalSeconds;
      }
    }
  } finally {
    await watches.close();
  }
  return { created, intervalSeconds };
}

/** The lookup service as the app builds it over `upstream`, time compressed. */
function lookupOver(erp: ErpApi, upstream: Upstream): LookupService {
  return lookupServiceOver({
    erp,
    ttlMs: MINUTE, // CACHE_TTL 60 s
    contactTtlMs: MINUTE / 2,
    maxBytes: 32 * 1024 * 1024,
    upstream,
    logger,
    metrics: createMetrics(),
  });
}

/**
 * Users' lookups over `minutes` ERP minutes: 30 a minute at random over the watched items and
 * as many others, and every ten minutes 70 different items at once from ten people (more than
 * a window holds: some wait in the queue, which is when the checker must hold back).
 */
async function userLoad(
  lookup: LookupService,
  minutes: number,
  watched: readonly string[],
  others: readonly string[],
  seed: number,
): Promise<UserRun> {
  const random = seeded(seed);
  const pick = (list: readonly string[]) => list[Math.floor(random() * list.length)] ?? '';
  const plan: Array<{ at: number; code: string; user: string }> = [];
  for (let i = 0; i < minutes * 30; i += 1) {
    plan.push({
      at: random() * minutes * MINUTE,
      code: random() < 0.5 ? pick(watched) : pick(others),
      user: `U0USER${Math.floor(random() * 20)}`,
    });
  }
  for (let m = 5; m < minutes; m += 10) {
    const from = Math.floor(random() * (others.length - 70));
    others.slice(from, from + 70).forEach((code, i) => {
      plan.push({ at: m * MINUTE, code, user: `U0USER${100 + (i % 10)}` });
    });
  }
  const run: UserRun = { lookups: plan.length, busy: 0, errors: 0, p50Ms: 0, p99Ms: 0 };
  const latencies: number[] = [];
  const start = performance.now();
  await Promise.all(
    plan.map(async (lookupAt) => {
      const wait = lookupAt.at - (performance.now() - start);
      if (wait > 0) await sleep(wait);
      const began = performance.now();
      try {
        await lookup.getItem({ code: lookupAt.code }, { requester: lookupAt.user });
        latencies.push(performance.now() - began);
      } catch (error) {
        if (error instanceof BusyError) run.busy += 1;
        else run.errors += 1;
      }
    }),
  );
  run.p50Ms = percentile(latencies, 50);
  run.p99Ms = percentile(latencies, 99);
  return run;
}

/** A gauge's or counter's value on `registry` (summed over the series matching `labels`). */
async function gauge(registry: Registry, name: string, labels: Record<string, string> = {}) {
  const metric = await registry.getSingleMetric(name)?.get();
  return (metric?.values ?? [])
    .filter((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want))
    .reduce((sum, v) => sum + v.value, 0);
}

/** The checker against users' lookups and stock moves, time compressed. */
async function checkRun(
  quick: boolean,
  data: SandboxData,
  progress: (line: string) => void,
): Promise<Omit<WatchFigures, 'memory' | 'skipped' | 'story'>> {
  const minutes = quick ? 60 : 180;
  const sandbox = await startSandbox({
    data,
    limits: {
      getItem: GET_LIMIT,
      getContact: GET_LIMIT,
      searchItems: 20,
      searchContact: 20,
      windowMs: MINUTE,
    },
    faults: LATENCY,
  });
  const events = new ErpEvents();
  const client = new ErpClient({
    baseUrl: sandbox.url,
    ...sandbox.credentials,
    timeoutMs: 5_000,
    maxConnections: ERP_CONNECTIONS,
    events,
  });
  const codes = watchableCodes(data, ITEMS);
  const others = watchableCodes(data, ITEMS, ITEMS);
  const dir = mkdtempSync(join(tmpdir(), 'bench-watches-'));
  const poster = new RecordingPoster();
  try {
    const items = await fetchAll(client, codes, GET_LIMIT / 2, MINUTE * 1.05);
    const plans = planWatches(codes, items);
    const interval = checkIntervalSeconds(ITEMS, WATCH_LIMITS) * 1000;
    // Watches made over the last interval, item by item: at the start every item has been
    // read once, and they fall due evenly, as they do once the app has run a while.
    const t0 = Date.UTC(2030, 0, 1);
    const store: WatchStoreOptions = { kind: 'sqlite', dataDir: dir, driver: 'sql.js' };
    const made = await populate(
      store,
      plans,
      items,
      (p) => t0 - interval + (interval * p.item) / ITEMS,
      poster,
    );
    progress(
      `  ${made.created} watches over ${codes.length} items made; interval shown ${made.intervalSeconds} s`,
    );
    await sleep(MINUTE * 1.1); // the population's calls out of the sandbox's window

    // Users alone first (no watched item yet in this service's feed): the queue they make.
    const aloneUpstream = createUpstream({
      credentialKey: client.credentialKey,
      limits: { getPerMinute: GET_LIMIT, searchPerMinute: 20, windowMs: MINUTE },
      queueMaxWaitMs: 0.75 * MINUTE,
      metrics: createMetrics(),
      logger,
      now: Date.now,
    });
    const aloneLookup = lookupOver(client, aloneUpstream);
    const userMinutes = quick ? 20 : 60;
    const alone = await userLoad(aloneLookup, userMinutes, codes, others, 5);
    await aloneLookup.close();
    aloneUpstream.close();
    progress(
      `  users alone, ${userMinutes} min: p99 ${alone.p99Ms.toFixed(0)} ms, ${alone.busy} busy`,
    );
    await sleep(MINUTE * 1.1);

    // The app's wiring: one upstream for users and checks, the lookup feed, the checker.
    const wallStart = performance.now();
    const now = () => t0 + (performance.now() - wallStart) * SPEED;
    const upstream = createUpstream({
      credentialKey: client.credentialKey,
      limits: { getPerMinute: GET_LIMIT, searchPerMinute: 20, windowMs: MINUTE },
      queueMaxWaitMs: 0.75 * MINUTE,
      metrics: createMetrics(),
      logger,
      now: Date.now,
    });
    const queue = upstream.lanes.getItem.queue;
    const registry = new Registry();
    let checks = 0;
    let checksWhileUsersWaited = 0;
    const watches = createWatches({
      store,
      erp: {
        getItem: (ref, options) => {
          checks += 1;
          if (queue.usersWaiting()) checksWhileUsersWaited += 1;
          return client.getItem(ref, options);
        },
      },
      fetchItem: async (code, requester) => (await lookup.getItem({ code }, { requester })).data,
      budget: ledgerCheckBudget(upstream, WATCH_LIMITS.share),
      poster,
      limits: WATCH_LIMITS,
      logger,
      registry,
      // The checker's 5 s tick, compressed.
      tickMs: 5_000 / SPEED,
      now,
    });
    feedWatches(events, watches.feed, now);
    const lookup = lookupOver(client, upstream);
    sandbox.resetStats();
    await watches.start();
    // Stock moves: a few items with "below" watches go to 0, early enough for two intervals.
    const random = seeded(9);
    const moves = (quick ? 5 : 12) as number;
    const moveSpan = quick ? 10 : 60;
    const moved: Array<{ code: string; channels: Set<string>; at: number }> = [];
    const moving = Array.from({ length: moves }, async (_, i) => {
      const code = codes[Math.floor((i + random()) * (ITEMS / moves))] ?? '';
      const at = (2 + random() * (moveSpan - 2)) * MINUTE;
      await sleep(at);
      const result = moveSandboxStock(data, code, { available: 0 });
      if (!result.ok) return;
      const channels = new Set(
        plans.filter((p) => p.code === code && p.direction === 'below').map((p) => p.channel),
      );
      moved.push({ code, channels, at: performance.now() });
    });
    const users = userLoad(lookup, minutes, codes, others, 6);
    await sleep(minutes * MINUTE);
    const total = sandbox.stats().requests.getItem ?? 0;
    const checksInSpan = checks;
    await Promise.all(moving);
    const alertOf = (move: (typeof moved)[number]) =>
      poster.posts.find(
        (p) => p.at > move.at && move.channels.has(p.channel) && p.body.includes(move.code),
      );
    const deadline = Math.max(...moved.map((m) => m.at)) + (2 * interval) / SPEED;
    while (performance.now() < deadline && !moved.every(alertOf)) await sleep(100);
    const withChecks = await users;
    const shownByChecker = await gauge(registry, 'watch_check_interval_seconds');
    const fromLookups = await gauge(registry, 'watch_checks_total', { source: 'lookup' });
    const rateLimited = sandbox.stats().rateLimited;
    await watches.close();
    await lookup.close();
    upstream.close();
    const delays = moved.flatMap((m) => {
      const alert = alertOf(m);
      return alert ? [((alert.at - m.at) * SPEED) / 60_000] : [];
    });
    progress(
      `  ${minutes} min: ${checksInSpan} checks, ${total - checksInSpan} user calls, ${rateLimited} × 429; alerts ${delays.length}/${moved.length}`,
    );
    return {
      minutes,
      created: made.created,
      intervalSeconds: { shown: made.intervalSeconds, checker: shownByChecker },
      calls: {
        checks: checksInSpan,
        users: total - checksInSpan,
        perHourLimit: GET_LIMIT * 60,
        checkShare: WATCH_LIMITS.share * GET_LIMIT * 60,
        fromLookups,
      },
      rateLimited,
      alerts: {
        moved: moved.length,
        alerted: delays.length,
        withinTwoIntervals: delays.filter((d) => d * 60_000 <= 2 * interval).length,
        minutes: delays,
      },
      users: { withChecks, alone, checksWhileUsersWaited },
    };
  } finally {
    await client.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The path of a Node 24 binary through npx (cached after the first time), or why not. */
function node24(): string | { skipped: string } {
  try {
    const path = execFileSync(
      'npx',
      ['-y', '-p', 'node@24', '--', 'node', '-p', 'process.execPath'],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 180_000,
      },
    ).trim();
    const version = execFileSync(path, ['-v'], { encoding: 'utf8' }).trim();
    if (!version.startsWith('v24.')) return { skipped: `npx gave ${version}, not Node 24` };
    return path;
  } catch (error) {
    return {
      skipped: `Node 24 not available through npx (${(error as Error).message.slice(0, 80)})`,
    };
  }
}

/** Sets every watch's last reading to `at`: nothing due (idle), or everything due (peak). */
async function setCheckedAt(store: WatchStoreOptions, at: number): Promise<void> {
  const opened = await openWatchStore(store);
  try {
    await opened.db.updateTable('watches').set({ last_checked_at: at }).execute();
  } finally {
    await opened.close();
  }
}

interface MemoryConfig {
  name: string;
  node: string | undefined;
  /** The store's options for setting times; undefined: no watches. */
  store: WatchStoreOptions | undefined;
  env: Record<string, string>;
}

/**
 * The app's RSS with watches in its store against the same app without: idle (2 s after
 * /healthz, nothing due), and the peak over a run where every watched item falls due at once
 * (the budget raised so the checker goes through all 300), ten items cross and are alerted,
 * and /stock commands arrive meanwhile.
 */
export async function memoryRuns(
  quick: boolean,
  data: SandboxData,
  ours: AppCommand,
  progress: (line: string) => void,
): Promise<{ rows: MemoryRow[]; skipped: string[] }> {
  const skipped: string[] = [];
  const rows: MemoryRow[] = [];
  const slack = await startSlackStub(
    () => false,
    () => false,
  );
  const sandbox = await startSandbox({
    data,
    limits: {
      getItem: 100_000,
      getContact: 100_000,
      searchItems: 20,
      searchContact: 20,
      windowMs: 60_000,
    },
  });
  const client = new ErpClient({ baseUrl: sandbox.url, ...sandbox.credentials, timeoutMs: 5_000 });
  const base = mkdtempSync(join(tmpdir(), 'bench-watch-rss-'));
  const database = `bench_watches_${process.pid}_${Date.now()}`;
  const pgAdmin = 'postgres://postgres@127.0.0.1:5432/postgres';
  let pgMade = false;
  try {
    const codes = watchableCodes(data, ITEMS);
    const items = await fetchAll(client, codes, 50, 0);
    const plans = planWatches(codes, items);
    const seedDir = join(base, 'seed');
    await populate({ kind: 'sqlite', dataDir: seedDir, driver: 'sql.js' }, plans, items, () =>
      Date.now(),
    );
    // A copy each: the times are set through sql.js for both engines (the file is SQLite's own).
    const sqliteStore = (name: string): MemoryConfig['store'] => {
      const dir = join(base, name);
      mkdirSync(dir, { recursive: true });
      copyFileSync(join(seedDir, SQLITE_FILE), join(dir, SQLITE_FILE));
      return { kind: 'sqlite', dataDir: dir, driver: 'sql.js' };
    };
    const empty = join(base, 'empty');
    mkdirSync(empty, { recursive: true });
    const configs: MemoryConfig[] = [
      { name: 'no watches', node: undefined, store: undefined, env: { DATA_DIR: empty } },
      {
        name: 'embedded, sql.js',
        node: undefined,
        store: sqliteStore('sqljs'),
        env: { DATA_DIR: join(base, 'sqljs') },
      },
    ];
    const node = node24();
    if (typeof node === 'string') {
      configs.push(
        { name: 'no watches', node, store: undefined, env: { DATA_DIR: empty } },
        {
          name: 'embedded, node:sqlite',
          node,
          store: sqliteStore('nodesqlite'),
          env: { DATA_DIR: join(base, 'nodesqlite') },
        },
      );
    } else skipped.push(`node:sqlite: ${node.skipped}`);
    try {
      const admin = new pg.Client({ connectionString: pgAdmin });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
      pgMade = true;
      const url = `postgres://postgres@127.0.0.1:5432/${database}`;
      await populate({ kind: 'postgres', url }, plans, items, () => Date.now());
      configs.push({
        name: 'PostgreSQL',
        node: undefined,
        store: { kind: 'postgres', url },
        env: { DATA_DIR: empty, DATABASE_URL: url },
      });
    } catch (error) {
      skipped.push(`PostgreSQL: ${(error as Error).message.slice(0, 120)}`);
    }

    const minSeconds = quick ? 8 : 20;
    const maxSeconds = quick ? 90 : 240;
    const commands = quick ? 300 : 1_500;
    const moving = codes.slice(0, 10);
    /** Posts the peak run owes: one alert per "below" watch of the ten items moved to 0. */
    const alertsOwed = plans.filter(
      (p) => moving.includes(p.code) && p.direction === 'below',
    ).length;
    /** getItem calls the commands cost without watches (the first such run measures it). */
    let commandCalls = Number.POSITIVE_INFINITY;
    for (const config of configs) {
      const command: AppCommand = {
        name: `ours, ${config.name}`,
        cwd: ours.cwd,
        script: config.node ? ours.script.replace(/^node\b/, config.node) : ours.script,
      };
      const env = {
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.apiUrl,
        ERP_BASE_URL: sandbox.url,
        ERP_COMPANY_CODE: sandbox.credentials.companyCode,
        ERP_ACCESS_TOKEN: sandbox.credentials.accessToken,
        ERP_TENANT_ID: sandbox.credentials.tenantId,
        DATABASE_URL: '',
        ...config.env,
      };
      // Idle: every watch read a moment ago, so nothing is due for 50 minutes.
      if (config.store) await setCheckedAt(config.store, Date.now());
      const idleApp = await startApp(command, env);
      await sleep(2_000);
      const idle = idleApp.sample().rssBytes / MiB;
      await idleApp.stop();

      // Peak: everything due, ten items past their "below" thresholds, a budget that lets the
      // checker through all 300 items within the run, and /stock commands meanwhile.
      if (config.store) await setCheckedAt(config.store, Date.now() - 3 * 3_600_000);
      const moved = moving.map((code) => {
        const result = moveSandboxStock(data, code, { available: 0 });
        return { code, before: result.ok ? result.before : 0 };
      });
      const postsBefore = slack.posts;
      const callsBefore = sandbox.stats().requests.getItem ?? 0;
      const app = await startApp(command, { ...env, ERP_GET_LIMIT_PER_MINUTE: '30000' });
      let peak = app.sample().rssBytes;
      const sampler = setInterval(() => {
        peak = Math.max(peak, app.sample().rssBytes);
      }, 100);
      const pool = appPool(app.port, 8);
      const began = performance.now();
      await closedLoop(
        pool,
        8,
        maxSeconds,
        (i) =>
          signedStock(
            codes[(i * 7) % codes.length] ?? '',
            slack.responseUrl(`w-${i}`),
            `U0USER${i % 20}`,
          ),
        (reply) => reply.status === 200,
        commands,
      );
      await sleep(Math.max(0, minSeconds * 1000 - (performance.now() - began)));
      // With watches, the run lasts until the checker has read every item and posted every
      // alert (a slower engine takes longer, and its peak is measured over the same work).
      const owed = config.store ? alertsOwed : 0;
      const checked = () =>
        (sandbox.stats().requests.getItem ?? 0) - callsBefore >= commandCalls + ITEMS;
      while (
        config.store &&
        performance.now() - began < maxSeconds * 1000 &&
        (slack.posts - postsBefore < owed || !checked())
      ) {
        await sleep(200);
      }
      const seconds = (performance.now() - began) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, app.sample().rssBytes);
      await pool.close();
      await app.stop();
      for (const { code, before } of moved) moveSandboxStock(data, code, { available: before });
      slack.delivered.clear();
      const row: MemoryRow = {
        name: config.name,
        node: config.node
          ? execFileSync(config.node, ['-v'], { encoding: 'utf8' }).trim()
          : process.version,
        idleMiB: idle,
        peakMiB: peak / MiB,
        calls: (sandbox.stats().requests.getItem ?? 0) - callsBefore,
        alerts: slack.posts - postsBefore,
        seconds,
      };
      if (!config.store) commandCalls = Math.min(commandCalls, row.calls);
      rows.push(row);
      progress(
        `  ${row.name} (${row.node}): idle ${row.idleMiB.toFixed(0)} MiB, peak ${row.peakMiB.toFixed(0)} MiB, ${row.calls} getItem, ${row.alerts} posts in ${seconds.toFixed(0)} s`,
      );
    }
  } finally {
    if (pgMade) {
      const admin = new pg.Client({ connectionString: pgAdmin });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
    await client.close();
    await sandbox.close();
    await slack.close();
    rmSync(base, { recursive: true, force: true });
  }
  return { rows, skipped };
}

export async function runWatchSection(
  quick: boolean,
  ours: AppCommand,
  progress: (line: string) => void,
): Promise<WatchFigures> {
  progress(`Watches: ${WATCHES} over ${ITEMS} items, time compressed ${SPEED}x...`);
  const data = generateSandboxData(11);
  const checks = await checkRun(quick, data, progress);
  progress('Watches: the app with watches loaded, idle and peak RSS...');
  const memory = await memoryRuns(quick, generateSandboxData(11), ours, progress);
  const story = await runWatchStoryBench(quick, progress);
  return { ...checks, memory: memory.rows, skipped: memory.skipped, story };
}
