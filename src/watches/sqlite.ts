/**
 * The embedded store's two SQLite engines, each adapted to the small better-sqlite3-shaped
 * interface Kysely's `SqliteDialect` drives, so one schema, one migrator and one repository
 * serve PostgreSQL and SQLite alike.
 *
 * - `node:sqlite` (Node 22.13+ and 24): built in, a few MiB. Loaded with a dynamic import so
 *   that Node 20 never sees the specifier; its one ExperimentalWarning is swallowed on purpose.
 * - `sql.js` (SQLite compiled to WebAssembly, any Node): the whole database lives in memory;
 *   a file-backed one is written out after each committed change (to a temporary file, then
 *   renamed, so a crash mid-write never leaves half a database).
 *
 * Never a native build: `better-sqlite3`'s prebuilt binaries cannot be relied on everywhere
 * the app runs.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** The embedded database's file name in DATA_DIR. */
export const SQLITE_FILE = 'watches.sqlite';

export type SqliteDriverName = 'node:sqlite' | 'sql.js';

/** Statements whose row count says whether they changed anything (DDL reports 0). */
const ROW_VERBS: ReadonlySet<string> = new Set(['insert', 'update', 'delete', 'replace']);

/** Kysely asks `reader` to choose between `all` (rows) and `run` (changes). */
function readsRows(sql: string): boolean {
  return /^\s*(select|with|pragma|values|explain)\b/i.test(sql) || /\breturning\b/i.test(sql);
}

/** True where the runtime has `node:sqlite` (Node 22.13+ without a flag, 23.4+, 24). */
export function hasNodeSqlite(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

/** The engine `open` picks when none is named: the built-in one where it exists. */
export function defaultSqliteDriver(): SqliteDriverName {
  return hasNodeSqlite() ? 'node:sqlite' : 'sql.js';
}

/** `path` undefined: in memory (the console). */
export async function openSqlite(
  driver: SqliteDriverName,
  path: string | undefined,
): Promise<SqliteDatabase> {
  if (path !== undefined) mkdirSync(dirname(path), { recursive: true });
  return driver === 'node:sqlite' ? openNodeSqlite(path) : openSqlJs(path);
}

interface NodeStatement {
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: unknown[]): IterableIterator<unknown>;
}
interface NodeDatabase {
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
}

async function openNodeSqlite(path: string | undefined): Promise<SqliteDatabase> {
  const module = (await importQuietly('node:sqlite')) as {
    DatabaseSync: new (path: string) => NodeDatabase;
  };
  const database = new module.DatabaseSync(path ?? ':memory:');
  // WAL keeps readers off the writer's back; NORMAL sync is durable enough for a watch list.
  if (path !== undefined) database.exec('pragma journal_mode = wal; pragma synchronous = normal');
  return {
    close: () => database.close(),
    prepare(sql): SqliteStatement {
      const statement = database.prepare(sql);
      return {
        reader: readsRows(sql),
        all: (parameters) => statement.all(...parameters),
        run: (parameters) => statement.run(...parameters),
        iterate: (parameters) => statement.iterate(...parameters),
      };
    },
  };
}

/**
 * `node:sqlite` prints "ExperimentalWarning: SQLite is an experimental feature" once per
 * process on Node 22. The feature is what we want and the warning would alarm operators, so
 * this one warning (and only it) is dropped while the module loads.
 */
async function importQuietly(specifier: string): Promise<unknown> {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string })?.type;
    if (type === 'ExperimentalWarning' && /sqlite/i.test(text)) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return await import(specifier);
  } finally {
    process.emitWarning = emit;
  }
}

async function openSqlJs(path: string | undefined): Promise<SqliteDatabase> {
  const require = createRequire(import.meta.url);
  const { default: initSqlJs } = await import('sql.js');
  // The WebAssembly file ships beside sql.js's own entry point.
  const wasm = require.resolve('sql.js/dist/sql-wasm.wasm');
  const SQL = await initSqlJs({ locateFile: () => wasm });
  let existing: Uint8Array | undefined;
  if (path !== undefined) {
    try {
      existing = readFileSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const database = new SQL.Database(existing);
  let inTransaction = false;
  const persist = () => {
    if (path === undefined || inTransaction) return;
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, database.export());
    renameSync(temporary, path);
  };
  const rows = (sql: string, parameters: ReadonlyArray<unknown>): unknown[] => {
    const statement = database.prepare(sql);
    try {
      statement.bind(parameters as never);
      const out: unknown[] = [];
      while (statement.step()) out.push(statement.getAsObject());
      return out;
    } finally {
      statement.free();
    }
  };
  return {
    close: () => database.close(),
    prepare(sql): SqliteStatement {
      const reader = readsRows(sql);
      const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase();
      return {
        reader,
        all: (parameters) => {
          const out = rows(sql, parameters);
          // `insert … returning` changes the database too.
          if (verb !== 'select' && verb !== 'with' && verb !== 'pragma') persist();
          return out;
        },
        run: (parameters) => {
          database.run(sql, parameters as never);
          const changes = database.getRowsModified();
          const id = rows('select last_insert_rowid() as id', [])[0] as { id?: number } | undefined;
          // `export()` closes and reopens the database: never inside a transaction.
          if (verb === 'begin') inTransaction = true;
          else if (verb === 'commit' || verb === 'rollback' || verb === 'end') {
            inTransaction = false;
            if (verb !== 'rollback') persist();
          } else if (changes > 0 || !ROW_VERBS.has(verb ?? '')) {
            // A write that changed no row (a compare-and-set that lost, a prune with nothing
            // old) leaves the file as it is: rewriting it costs the whole database each time.
            persist();
          }
          return { changes, lastInsertRowid: id?.id ?? 0 };
        },
        iterate: (parameters) =>
          rows(sql, parameters)[Symbol.iterator]() as IterableIterator<unknown>,
      };
    },
  };
}
