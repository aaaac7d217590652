/**
 * The watch store's tables as Kysely sees them, and the migrations that make them. One set of
 * migrations serves PostgreSQL and SQLite: integers for times (ms since the epoch, `bigint`
 * on PostgreSQL), text for ids, `double precision` for quantities (the ERP's are decimals),
 * 0/1 integers for flags (SQLite has no booleans).
 *
 * Migrations are append-only: a released one is never edited, a change is a new entry.
 */
import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';

export type WatchDirection = 'below' | 'above';
/**
 * `armed`: waiting for a crossing. `past`: crossed; `alert_ts` is its message once posted
 * (null while the post is still owed, or when the watch was made already past). `off`:
 * switched off, `off_reason` says why.
 */
export type WatchState = 'armed' | 'past' | 'off';

export interface WatchTable {
  id: string;
  team_id: string;
  channel_id: string;
  creator_id: string;
  item_code: string;
  item_id: number;
  /** The item's description at the last check (the alert shows it). */
  description: string;
  /** '' for company-wide; the ERP branch id as text otherwise (part of the unique key). */
  branch_key: string;
  branch_name: string | null;
  direction: WatchDirection;
  threshold: number;
  state: WatchState;
  off_reason: string | null;
  /** Available at the last check (null before the first). */
  last_available: number | null;
  last_on_order: number | null;
  last_checked_at: number | null;
  /** The crossing being announced: quantity before it, and when it happened. */
  crossed_before: number | null;
  crossed_at: number | null;
  /**
   * The current crossing's alert: 0 nothing owed, 1 owed (recorded, not yet posted), 2 being
   * posted by the checker (a claim, so no other replica posts it too).
   */
  alert_owed: number;
  /** When the checker claimed the post (alert_owed 2): a claim older than a few minutes is retried. */
  claimed_at: number | null;
  alert_ts: string | null;
  /** The available quantity the alert message shows: differs from `last_available` → update. */
  alert_shown: number | null;
  /** How many crossings were announced: a crossing's identity across replicas. */
  crossings: number;
  snoozed_until: number | null;
  /**
   * 1 once the switch-off was told (the creator's direct message for a Slack refusal, the
   * channel's message for an item gone): claimed before sending, so it is sent at most once.
   */
  off_told: number;
  created_at: number;
  updated_at: number;
  /** Bumped by every change: writers compare-and-set on it, so two replicas never both act. */
  version: number;
  /**
   * (0002) Turns of the watch's story: each crossing and each return adds one. The turn being
   * told is the identity a claim and its record are checked against, across replicas.
   */
  turns: number;
  /** (0002) The mentions `notify` asked for, as Slack's own tokens joined by spaces, or null. */
  notify: string | null;
  /**
   * (0004) 1: a one-shot watch ("Tell me when it's Yes" after a No): its first alert is its
   * only one, and it is removed once that alert is posted.
   */
  once: number;
  /**
   * (0005) Where a one-shot answers: the thread of the message its button sat on (or of its
   * confirmation); null: the top of the conversation (a direct message).
   */
  thread_ts: string | null;
  /**
   * (0005) '' for an ordinary watch; a one-shot's own key (its creator and thread), so one
   * never takes the place of an ordinary watch on the same item, branch and direction.
   */
  once_key: string;
}

/** (0002) Observed available quantities of watched items: the history days of cover read. */
interface WatchHistoryTable {
  item_code: string;
  /** As on `watches`: '' company-wide, else the branch id. */
  branch_key: string;
  at: number;
  available: number;
}

/** (0002) A channel's daily digest: one row a channel, its next slot kept with it. */
export interface WatchDigestTable {
  channel_id: string;
  team_id: string;
  /** Who turned it on (for the log and the list). */
  set_by: string;
  /** Local time of day in `zone`, in minutes (0..1439). */
  minute_of_day: number;
  /** An IANA zone name as Intl knows it ('UTC' by default). */
  zone: string;
  /** The next slot, in ms since the epoch: sent once it passes, then moved on by a day. */
  next_at: number;
  /** A replica claimed the slot `next_at` at this time and is sending it (null: nobody). */
  claimed_at: number | null;
  /** The last slot sent (or found with nothing to send). */
  last_slot: number | null;
  created_at: number;
  updated_at: number;
  /** (0006) 1: the digest also carries the last seven days' unmet demand. */
  demand: number;
}

/**
 * (0003) Unmet demand: the No answers the app gave, counted by item, branch and UTC day.
 * Counts only: never who asked, never where. Bounded (src/watches/demand.ts).
 */
export interface UnmetDemandTable {
  item_code: string;
  /** As on `watches`: '' company-wide, else the branch id. */
  branch_key: string;
  branch_name: string | null;
  /** Days since the epoch, UTC. */
  day: number;
  count: number;
}

export interface WatchDatabase {
  watches: WatchTable;
  watch_history: WatchHistoryTable;
  watch_digests: WatchDigestTable;
  unmet_demand: UnmetDemandTable;
}

export type Dialect = 'postgres' | 'sqlite';

/** A 0/1 flag column, 0 for the rows already there, and its removal. */
function flagColumn(table: string, column: string): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable(table)
        .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable(table).dropColumn(column).execute();
    },
  };
}

const MIGRATIONS: Record<string, (dialect: Dialect) => Migration> = {
  '0001_watches': (dialect) => ({
    async up(db: Kysely<unknown>) {
      const time = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('watches')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('creator_id', 'text', (c) => c.notNull())
        .addColumn('item_code', 'text', (c) => c.notNull())
        .addColumn('item_id', 'integer', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('branch_key', 'text', (c) => c.notNull())
        .addColumn('branch_name', 'text')
        .addColumn('direction', 'text', (c) => c.notNull())
        .addColumn('threshold', 'double precision', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('off_reason', 'text')
        .addColumn('last_available', 'double precision')
        .addColumn('last_on_order', 'double precision')
        .addColumn('last_checked_at', time)
        .addColumn('crossed_before', 'double precision')
        .addColumn('crossed_at', time)
        .addColumn('alert_owed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('claimed_at', time)
        .addColumn('alert_ts', 'text')
        .addColumn('alert_shown', 'double precision')
        .addColumn('crossings', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('snoozed_until', time)
        .addColumn('off_told', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // One watch per channel, item, branch and direction: a second `/stock watch` moves it.
      await db.schema
        .createIndex('watches_unique')
        .on('watches')
        .columns(['channel_id', 'item_code', 'branch_key', 'direction'])
        .unique()
        .execute();
      await db.schema.createIndex('watches_item').on('watches').columns(['item_code']).execute();
      await db.schema
        .createIndex('watches_creator')
        .on('watches')
        .columns(['creator_id'])
        .execute();
      await db.schema.createIndex('watches_state').on('watches').columns(['state']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('watches').execute();
    },
  }),
  '0002_threads_history_digests': (dialect) => ({
    async up(db: Kysely<unknown>) {
      const time = dialect === 'postgres' ? 'bigint' : 'integer';
      // SQLite adds one column per ALTER TABLE.
      await db.schema
        .alterTable('watches')
        .addColumn('turns', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('watches').addColumn('notify', 'text').execute();
      await db.schema
        .createTable('watch_history')
        .addColumn('item_code', 'text', (c) => c.notNull())
        .addColumn('branch_key', 'text', (c) => c.notNull())
        .addColumn('at', time, (c) => c.notNull())
        .addColumn('available', 'double precision', (c) => c.notNull())
        .addPrimaryKeyConstraint('watch_history_pk', ['item_code', 'branch_key', 'at'])
        .execute();
      await db.schema
        .createTable('watch_digests')
        .addColumn('channel_id', 'text', (c) => c.primaryKey())
        .addColumn('team_id', 'text', (c) => c.notNull())
        .addColumn('set_by', 'text', (c) => c.notNull())
        .addColumn('minute_of_day', 'integer', (c) => c.notNull())
        .addColumn('zone', 'text', (c) => c.notNull())
        .addColumn('next_at', time, (c) => c.notNull())
        .addColumn('claimed_at', time)
        .addColumn('last_slot', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('watch_digests_next')
        .on('watch_digests')
        .columns(['next_at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('watch_digests').execute();
      await db.schema.dropTable('watch_history').execute();
      await db.schema.alterTable('watches').dropColumn('notify').execute();
      await db.schema.alterTable('watches').dropColumn('turns').execute();
    },
  }),
  '0003_unmet_demand': () => ({
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('unmet_demand')
        .addColumn('item_code', 'text', (c) => c.notNull())
        .addColumn('branch_key', 'text', (c) => c.notNull())
        .addColumn('branch_name', 'text')
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('unmet_demand_pk', ['item_code', 'branch_key', 'day'])
        .execute();
      await db.schema.createIndex('unmet_demand_day').on('unmet_demand').columns(['day']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('unmet_demand').execute();
    },
  }),
  '0004_one_shot_watches': () => flagColumn('watches', 'once'),
  '0005_one_shot_threads': () => ({
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('watches').addColumn('thread_ts', 'text').execute();
      await db.schema
        .alterTable('watches')
        .addColumn('once_key', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      // The unique key gains the one-shot's key: ordinary watches keep theirs ('').
      await db.schema.dropIndex('watches_unique').execute();
      await db.schema
        .createIndex('watches_unique')
        .on('watches')
        .columns(['channel_id', 'item_code', 'branch_key', 'direction', 'once_key'])
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('watches_unique').execute();
      // One-shots would collide on the narrower key; they are dropped with it.
      await sql`delete from watches where once_key <> ''`.execute(db);
      await db.schema
        .createIndex('watches_unique')
        .on('watches')
        .columns(['channel_id', 'item_code', 'branch_key', 'direction'])
        .unique()
        .execute();
      await db.schema.alterTable('watches').dropColumn('once_key').execute();
      await db.schema.alterTable('watches').dropColumn('thread_ts').execute();
    },
  }),
  '0006_digest_demand': () => flagColumn('watch_digests', 'demand'),
};

export function watchMigrations(dialect: Dialect): MigrationProvider {
  return {
    getMigrations: async () =>
      Object.fromEntries(Object.entries(MIGRATIONS).map(([name, make]) => [name, make(dialect)])),
  };
}

export const MIGRATION_TABLE = 'watch_migrations';
export const MIGRATION_LOCK_TABLE = 'watch_migrations_lock';
