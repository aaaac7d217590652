/**
 * Opens the watch store: PostgreSQL through `pg` when DATABASE_URL is set, else an embedded
 * SQLite database (a file in DATA_DIR, or in memory for the console). Migrations run at open,
 * in order, recorded in `watch_migrations`; on PostgreSQL Kysely's migrator holds an advisory
 * lock meanwhile, so replicas starting together apply each migration once.
 *
 * Loaded only through `lazyWatchStore` (src/watches/lazy.ts), so Kysely and the drivers stay
 * out of memory until watches are first used.
 */
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import {
  type Dialect,
  MIGRATION_LOCK_TABLE,
  MIGRATION_TABLE,
  type WatchDatabase,
  watchMigrations,
} from './schema.js';
import { defaultSqliteDriver, openSqlite, SQLITE_FILE, type SqliteDriverName } from './sqlite.js';

export type WatchStoreOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  /** `dataDir` undefined: in memory. */
  | { kind: 'sqlite'; dataDir: string | undefined; driver?: SqliteDriverName };

export interface WatchStore {
  db: Kysely<WatchDatabase>;
  dialect: Dialect;
  /** `pg`, `node:sqlite` or `sql.js`: for logs and metrics. */
  driver: string;
  /** PostgreSQL only: the pool, for the checker's advisory lock. */
  pool: pg.Pool | undefined;
  close(): Promise<void>;
}

/** pg returns `bigint` columns as strings by default; our times fit a double exactly. */
const INT8_OID = 20;
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export async function openWatchStore(options: WatchStoreOptions): Promise<WatchStore> {
  let store: WatchStore;
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 4,
      types: pgTypes,
      // A database away must not hang a check round for minutes.
      connectionTimeoutMillis: 5_000,
    });
    // An idle client losing its connection emits on the pool; unhandled it would crash us.
    pool.on('error', () => {});
    store = {
      db: new Kysely<WatchDatabase>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
      driver: 'pg',
      pool,
      close: async () => {
        await store.db.destroy();
      },
    };
  } else {
    const driver = options.driver ?? defaultSqliteDriver();
    const path = options.dataDir === undefined ? undefined : join(options.dataDir, SQLITE_FILE);
    const database = await openSqlite(driver, path);
    store = {
      db: new Kysely<WatchDatabase>({ dialect: new SqliteDialect({ database }) }),
      dialect: 'sqlite',
      driver,
      pool: undefined,
      close: async () => {
        await store.db.destroy();
      },
    };
  }
  try {
    await migrate(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

async function migrate(store: Pick<WatchStore, 'db' | 'dialect'>): Promise<string[]> {
  const migrator = new Migrator({
    db: store.db,
    provider: watchMigrations(store.dialect),
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    throw new Error('The watch database could not be migrated', { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
