/**
 * Every query the watches make, over Kysely, the same on PostgreSQL and SQLite. Changes made
 * by the checker and by lookups on any replica go through `compareAndSet` on the row's
 * `version`, so two writers never both act on one reading.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { WatchDatabase, WatchDirection, WatchState, WatchTable } from './schema.js';

export type Watch = Selectable<WatchTable>;
type WatchPatch = Omit<Updateable<WatchTable>, 'id' | 'version'>;

export interface NewWatch {
  teamId: string;
  channelId: string;
  creatorId: string;
  itemCode: string;
  itemId: number;
  description: string;
  branch: { id: number; name: string } | undefined;
  direction: WatchDirection;
  threshold: number;
  /** The quantity read when the watch was made. */
  available: number;
  onOrder: number;
  /** Already past at creation: no alert for that (the confirmation said so). */
  past: boolean;
  at: number;
  /** Slack's mention tokens the alert carries (`notify`), joined by spaces; absent: none. */
  notify?: string;
  /** One-shot: removed once its first alert is posted. */
  once?: boolean;
  /** A one-shot's thread: where it answers (absent: the top of the conversation). */
  threadTs?: string;
  /** A one-shot's key (`onceKeyOf`); absent: an ordinary watch's (''). */
  onceKey?: string;
}

/**
 * The unique key's last part: '' for an ordinary watch; a one-shot's creator and thread, so a
 * "Tell me when it's Yes" never replaces (nor is refused by) an ordinary watch on that item.
 */
export function onceKeyOf(once: { creatorId: string; threadTs?: string | undefined }): string {
  return `once:${once.creatorId}:${once.threadTs ?? ''}`;
}

export function branchKey(branchId: number | undefined): string {
  return branchId === undefined ? '' : String(branchId);
}

export function branchIdOf(watch: Pick<Watch, 'branch_key'>): number | undefined {
  return watch.branch_key === '' ? undefined : Number(watch.branch_key);
}

/** The upsert met another person's watch on the same key: it is theirs, and stays. */
export class WatchHeldByOtherError extends Error {
  constructor() {
    super('another person watches this item here');
    this.name = 'WatchHeldByOtherError';
  }
}

export class WatchRepository {
  constructor(private readonly db: Kysely<WatchDatabase>) {}

  /**
   * Creates the watch, replacing one on the same channel, item, branch and direction (a
   * second `/stock watch` with a new threshold moves it, once its creator said so; the service
   * asks first). A switched-off one is replaced whoever made it: it watches nothing, and its
   * creator was told it is off, so it must not hold the key.
   */
  async upsert(input: NewWatch): Promise<Watch> {
    const row: Insertable<WatchTable> = {
      id: randomUUID(),
      team_id: input.teamId,
      channel_id: input.channelId,
      creator_id: input.creatorId,
      item_code: input.itemCode,
      item_id: input.itemId,
      description: input.description,
      branch_key: branchKey(input.branch?.id),
      branch_name: input.branch?.name ?? null,
      direction: input.direction,
      threshold: input.threshold,
      state: input.past ? 'past' : 'armed',
      off_reason: null,
      last_available: input.available,
      last_on_order: input.onOrder,
      last_checked_at: input.at,
      crossed_before: null,
      crossed_at: null,
      alert_owed: 0,
      claimed_at: null,
      alert_ts: null,
      alert_shown: null,
      crossings: 0,
      snoozed_until: null,
      off_told: 0,
      created_at: input.at,
      updated_at: input.at,
      version: 0,
      turns: 0,
      notify: input.notify ?? null,
      once: input.once ? 1 : 0,
      thread_ts: input.once ? (input.threadTs ?? null) : null,
      once_key: input.once ? (input.onceKey ?? onceKeyOf({ creatorId: input.creatorId })) : '',
    };
    const { id: _id, created_at: _created, ...update } = row;
    return this.db
      .insertInto('watches')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['channel_id', 'item_code', 'branch_key', 'direction', 'once_key'])
          .doUpdateSet({
            ...update,
            version: (eb) => eb('watches.version', '+', 1),
          })
          // Only the creator's own watch moves, or one that is off; another person's active
          // watch is left as it is (no row).
          .where((eb) =>
            eb.or([
              eb('watches.creator_id', '=', input.creatorId),
              eb('watches.state', '=', 'off'),
            ]),
          ),
      )
      .returningAll()
      .executeTakeFirst()
      .then((row) => {
        if (row === undefined) throw new WatchHeldByOtherError();
        return row;
      });
  }

  /**
   * The active watch on this channel, item, branch and direction, if there is one (one that is
   * switched off holds nothing: a new one replaces it).
   */
  async activeOn(
    channelId: string,
    itemCode: string,
    branch: string,
    direction: WatchDirection,
    onceKey = '',
  ): Promise<Watch | undefined> {
    return this.db
      .selectFrom('watches')
      .selectAll()
      .where('channel_id', '=', channelId)
      .where('item_code', '=', itemCode)
      .where('branch_key', '=', branch)
      .where('direction', '=', direction)
      .where('once_key', '=', onceKey)
      .where('state', '!=', 'off')
      .executeTakeFirst();
  }

  /** Watches a person keeps that are still on, wherever they are (their DMs included). */
  async countActiveByCreator(creatorId: string): Promise<number> {
    const row = await this.db
      .selectFrom('watches')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('creator_id', '=', creatorId)
      .where('state', '!=', 'off')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  get(id: string): Promise<Watch | undefined> {
    return this.db.selectFrom('watches').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async countActiveInChannel(channelId: string): Promise<number> {
    const row = await this.db
      .selectFrom('watches')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('channel_id', '=', channelId)
      .where('state', '!=', 'off')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Distinct items with an active watch, least recently checked first. */
  async activeItems(): Promise<Array<{ code: string; checkedAt: number | null }>> {
    const rows = await this.db
      .selectFrom('watches')
      .select((eb) => ['item_code', eb.fn.min('last_checked_at').as('checked_at')])
      .where('state', '!=', 'off')
      .groupBy('item_code')
      .execute();
    return rows
      .map((r) => ({
        code: r.item_code,
        checkedAt: r.checked_at === null ? null : Number(r.checked_at),
      }))
      .sort((a, b) => (a.checkedAt ?? 0) - (b.checkedAt ?? 0));
  }

  activeForItem(code: string): Promise<Watch[]> {
    return this.db
      .selectFrom('watches')
      .selectAll()
      .where('item_code', '=', code)
      .where('state', '!=', 'off')
      .execute();
  }

  listByChannel(channelId: string): Promise<Watch[]> {
    return this.db
      .selectFrom('watches')
      .selectAll()
      .where('channel_id', '=', channelId)
      .orderBy('item_code')
      .orderBy('created_at')
      .execute();
  }

  /** Every watch still on (the access screen reads them before each round). */
  allActive(): Promise<Watch[]> {
    return this.db.selectFrom('watches').selectAll().where('state', '!=', 'off').execute();
  }

  /** The watches still on in one channel, or in a whole workspace (Slack's cleanup events). */
  activeWhere(where: { channelId: string } | { teamId: string }): Promise<Watch[]> {
    const query = this.db.selectFrom('watches').selectAll().where('state', '!=', 'off');
    return 'channelId' in where
      ? query.where('channel_id', '=', where.channelId).execute()
      : query.where('team_id', '=', where.teamId).execute();
  }

  listByCreator(userId: string): Promise<Watch[]> {
    return this.db
      .selectFrom('watches')
      .selectAll()
      .where('creator_id', '=', userId)
      .orderBy('channel_id')
      .orderBy('item_code')
      .execute();
  }

  async remove(id: string): Promise<Watch | undefined> {
    return this.db.deleteFrom('watches').where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** A check that failed still counts for pacing: a failing ERP is not asked every tick. */
  async markChecked(code: string, at: number): Promise<void> {
    await this.db
      .updateTable('watches')
      .set({ last_checked_at: at })
      .where('item_code', '=', code)
      .where('state', '!=', 'off')
      .execute();
  }

  /** Claims the right to tell the current turn (crossing or return); false if someone else has it. */
  async claimAlert(watch: Watch, at: number, staleClaimBefore: number): Promise<boolean> {
    const result = await this.db
      .updateTable('watches')
      .set({ alert_owed: 2, claimed_at: at })
      .where('id', '=', watch.id)
      .where('turns', '=', watch.turns)
      .where('state', '!=', 'off')
      .where((eb) =>
        eb.or([
          eb('alert_owed', '=', 1),
          eb.and([eb('alert_owed', '=', 2), eb('claimed_at', '<', staleClaimBefore)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Records a posted thread root: kept whatever turn came meanwhile (the message exists), so
   * later turns reply in its thread.
   */
  async rootPosted(watch: Watch, ts: string): Promise<void> {
    await this.db
      .updateTable('watches')
      .set({ alert_ts: ts })
      .where('id', '=', watch.id)
      .where('alert_ts', 'is', null)
      .execute();
  }

  /**
   * The turn `watch.turns` is told: nothing owed, unless a later turn came meanwhile (then it
   * stays owed for the next pass). `shown`: the quantity the root now shows.
   */
  async turnTold(watch: Watch, shown: number | null): Promise<boolean> {
    const result = await this.db
      .updateTable('watches')
      .set({ alert_owed: 0, alert_shown: shown, claimed_at: null })
      .where('id', '=', watch.id)
      .where('turns', '=', watch.turns)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A post that failed for now: owed again, for the next pass. */
  async alertStillOwed(watch: Watch): Promise<void> {
    await this.db
      .updateTable('watches')
      .set({ alert_owed: 1, claimed_at: null })
      .where('id', '=', watch.id)
      .where('turns', '=', watch.turns)
      .where('alert_owed', '=', 2)
      .execute();
  }

  /** The root message is gone (deleted in Slack): the next turn starts a new thread. */
  async rootGone(watch: Watch, ts: string): Promise<void> {
    await this.db
      .updateTable('watches')
      .set({ alert_ts: null, alert_shown: null })
      .where('id', '=', watch.id)
      .where('alert_ts', '=', ts)
      .execute();
  }

  /** Sets a field only if it still holds the value read (no version: readings may interleave). */
  async alertShown(watch: Watch, ts: string, shown: number): Promise<void> {
    await this.db
      .updateTable('watches')
      .set({ alert_shown: shown })
      .where('id', '=', watch.id)
      .where('alert_ts', '=', ts)
      .execute();
  }

  /** Claims the switch-off notices of these watches; returns those this caller must tell. */
  async claimOffNotices(ids: readonly string[]): Promise<Watch[]> {
    if (ids.length === 0) return [];
    return this.db
      .updateTable('watches')
      .set({ off_told: 1 })
      .where('id', 'in', ids)
      .where('state', '=', 'off')
      .where('off_told', '=', 0)
      .returningAll()
      .execute();
  }

  async switchOff(watch: Watch, reason: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('watches')
      .set({ state: 'off', off_reason: reason, alert_owed: 0, claimed_at: null, updated_at: at })
      .where('id', '=', watch.id)
      .where('state', '!=', 'off')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async snooze(id: string, until: number, at: number): Promise<Watch | undefined> {
    return this.db
      .updateTable('watches')
      .set((eb) => ({
        snoozed_until: until,
        // An alert not yet posted is dropped: the point of snoozing is silence. A turn owed in
        // an existing thread stays owed, so the thread and its first line do not go stale.
        alert_owed: eb
          .case()
          .when(eb.and([eb('alert_owed', '=', 1), eb('alert_ts', 'is', null)]))
          .then(0)
          .else(eb.ref('alert_owed'))
          .end(),
        updated_at: at,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Applies `patch` only if nobody changed the row since `version` was read. */
  async compareAndSet(watch: Pick<Watch, 'id' | 'version'>, patch: WatchPatch): Promise<boolean> {
    const result = await this.db
      .updateTable('watches')
      .set({ ...patch, version: watch.version + 1 })
      .where('id', '=', watch.id)
      .where('version', '=', watch.version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Rows the notifier must act on: turns owed, roots to update, switch-offs to tell. */
  pendingNotices(staleClaimBefore: number, now: number): Promise<Watch[]> {
    return this.db
      .selectFrom('watches')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('alert_owed', '=', 1),
          eb.and([eb('alert_owed', '=', 2), eb('claimed_at', '<', staleClaimBefore)]),
          // Still past and the quantity moved: the root is updated in place.
          eb.and([
            eb('state', '=', 'past'),
            eb('alert_ts', 'is not', null),
            eb('alert_owed', '=', 0),
            eb.or([
              eb('alert_shown', 'is', null),
              eb('alert_shown', '!=', eb.ref('last_available')),
            ]),
          ]),
          // Snoozed and armed, the quantity moved: no turn is told until the snooze ends, so
          // the root is redrawn to say where it stands (never a stale "back to 20 or more").
          eb.and([
            eb('state', '=', 'armed'),
            eb('snoozed_until', '>', now),
            eb('alert_ts', 'is not', null),
            eb('alert_owed', '=', 0),
            eb.or([
              eb('alert_shown', 'is', null),
              eb('alert_shown', '!=', eb.ref('last_available')),
            ]),
          ]),
          eb.and([eb('state', '=', 'off'), eb('off_told', '=', 0)]),
        ]),
      )
      .orderBy('updated_at')
      .limit(500)
      .execute();
  }

  async countByState(): Promise<Record<WatchState, number>> {
    const rows = await this.db
      .selectFrom('watches')
      .select((eb) => ['state', eb.fn.countAll<number | string>().as('n')])
      .groupBy('state')
      .execute();
    const counts = { armed: 0, past: 0, off: 0 };
    for (const row of rows) counts[row.state] = Number(row.n);
    return counts;
  }
}
