/**
 * The stores every watch repository test runs against: the embedded SQLite engines
 * (node:sqlite where this Node has it, sql.js everywhere) and the real PostgreSQL server,
 * each test on a database of its own (created with a unique name, dropped afterwards).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  openWatchStore,
  type WatchStore,
  type WatchStoreOptions,
} from '../../src/watches/database.js';
import type { NewWatch } from '../../src/watches/repository.js';
import { hasNodeSqlite } from '../../src/watches/sqlite.js';

export const POSTGRES_URL =
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface StoreCase {
  name: string;
  /** Options for a fresh database; `reopen` opens the same one again (a restart). */
  fresh(): Promise<{ options: WatchStoreOptions; drop(): Promise<void> }>;
}

let counter = 0;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const postgres: StoreCase = {
  name: 'postgres',
  async fresh() {
    counter += 1;
    const name = `watches_test_${process.pid}_${Date.now().toString(36)}_${counter}`;
    await admin((c) => c.query(`create database ${name}`));
    return {
      options: { kind: 'postgres', url: withDatabase(POSTGRES_URL, name), poolSize: 4 },
      drop: () =>
        admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
    };
  },
};

function sqliteCase(driver: 'node:sqlite' | 'sql.js'): StoreCase {
  return {
    name: driver,
    async fresh() {
      const dir = mkdtempSync(join(tmpdir(), 'watches-'));
      return {
        options: { kind: 'sqlite', dataDir: dir, driver },
        drop: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  };
}

export const STORE_CASES: StoreCase[] = [
  ...(hasNodeSqlite() ? [sqliteCase('node:sqlite')] : []),
  sqliteCase('sql.js'),
  postgres,
];

export async function openFresh(
  storeCase: StoreCase,
): Promise<{ store: WatchStore; options: WatchStoreOptions; drop(): Promise<void> }> {
  const { options, drop } = await storeCase.fresh();
  const store = await openWatchStore(options);
  return { store, options, drop };
}

export const T0 = Date.UTC(2026, 2, 2, 10, 0, 0);

export function newWatch(overrides: Partial<NewWatch> = {}): NewWatch {
  return {
    teamId: 'T1',
    channelId: 'C1',
    creatorId: 'U1',
    itemCode: 'WIDGET-9',
    itemId: 9,
    description: 'Widget nine',
    branch: undefined,
    direction: 'below',
    threshold: 20,
    available: 30,
    onOrder: 5,
    past: false,
    at: T0,
    ...overrides,
  };
}

export function requireValue<T>(value: T | undefined | null): T {
  if (value === undefined || value === null) throw new Error('expected a value');
  return value;
}

/**
 * A fresh store that can be reopened (a restart) or opened a second time (another replica,
 * PostgreSQL only: an embedded file has one process); every handle is closed and the
 * database dropped through `cleanups`, which the caller runs after each test.
 */
export async function reopenable(
  storeCase: StoreCase,
  cleanups: Array<() => Promise<void>>,
): Promise<{ store: WatchStore; reopen(): Promise<WatchStore>; another(): Promise<WatchStore> }> {
  const opened = await openFresh(storeCase);
  cleanups.push(opened.drop);
  let store = opened.store;
  cleanups.push(() => store.close());
  return {
    store,
    async reopen() {
      await store.close();
      store = await openWatchStore(opened.options);
      return store;
    },
    async another() {
      const other = await openWatchStore(opened.options);
      cleanups.push(() => other.close());
      return other;
    },
  };
}

/** A PostgreSQL database of its own for a whole-app test: its URL, and how to drop it. */
export async function scratchDatabase(
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  counter += 1;
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter}`;
  await admin((c) => c.query(`create database ${name}`));
  return {
    url: withDatabase(POSTGRES_URL, name),
    drop: () =>
      admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}
