/**
 * The daily digest: `/stock digest on [HH:MM [zone]]` keeps one row a channel with its next
 * slot; the replica holding the checker's lease sends each slot once it passes, one message
 * listing the channel's watches past their threshold (none when there are none).
 *
 * Once, across replicas and restarts: a slot is claimed in the database before it is sent
 * and moved on by a day once sent, both compare-and-set on the slot. A restart at the hour
 * finds the slot still due and sends it; a replica that died mid-send leaves a claim that is
 * retried after `CLAIM_STALE_MS` (the one window in which a digest could come twice). A slot
 * found more than `LATE_MS` late (the app was down for hours) is skipped, not sent at an odd
 * hour.
 */
import type { Kysely, Selectable } from 'kysely';
import { errorFields } from '../log/logger.js';
import { watchDigest } from '../views/watchAlert.js';
import type { Cover } from './cover.js';
import type { DemandRow } from './demand.js';
import { nextSlot } from './digestTime.js';
import { summaryOf } from './models.js';
import { CLAIM_STALE_MS, type PostingOptions } from './notifier.js';
import { PostError } from './poster.js';
import type { Watch } from './repository.js';
import { isPast } from './rules.js';
import type { WatchDatabase, WatchDigestTable } from './schema.js';

type Digest = Selectable<WatchDigestTable>;

const LATE_MS = 2 * 60 * 60_000;

interface DigestSetting {
  minuteOfDay: number;
  zone: string;
  nextAt: Date;
  /** The digest also carries the last seven days' unmet demand. */
  demand: boolean;
}

/** Demand lines a digest carries at most: the few most asked, a glance, not the report. */
export const DIGEST_DEMAND_ROWS = 5;
const DIGEST_DEMAND_DAYS = 7;

export class DigestRepository {
  constructor(private readonly db: Kysely<WatchDatabase>) {}

  async set(row: Omit<Digest, 'claimed_at' | 'last_slot' | 'created_at'>): Promise<Digest> {
    return this.db
      .insertInto('watch_digests')
      .values({ ...row, claimed_at: null, last_slot: null, created_at: row.updated_at })
      .onConflict((oc) =>
        oc.column('channel_id').doUpdateSet({
          team_id: row.team_id,
          set_by: row.set_by,
          minute_of_day: row.minute_of_day,
          zone: row.zone,
          next_at: row.next_at,
          demand: row.demand,
          claimed_at: null,
          updated_at: row.updated_at,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async remove(channelId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('watch_digests')
      .where('channel_id', '=', channelId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  get(channelId: string): Promise<Digest | undefined> {
    return this.db
      .selectFrom('watch_digests')
      .selectAll()
      .where('channel_id', '=', channelId)
      .executeTakeFirst();
  }

  /** Slots past due and not being sent (or whose sender died). */
  due(now: number, staleClaimBefore: number): Promise<Digest[]> {
    return this.db
      .selectFrom('watch_digests')
      .selectAll()
      .where('next_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', staleClaimBefore)]))
      .orderBy('next_at')
      .limit(200)
      .execute();
  }

  async claim(digest: Digest, now: number, staleClaimBefore: number): Promise<boolean> {
    const result = await this.db
      .updateTable('watch_digests')
      .set({ claimed_at: now })
      .where('channel_id', '=', digest.channel_id)
      .where('next_at', '=', digest.next_at)
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', staleClaimBefore)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The slot is done (sent, empty or skipped): the next one is due a day later. */
  async done(digest: Digest, nextAt: number, now: number): Promise<void> {
    await this.db
      .updateTable('watch_digests')
      .set({ next_at: nextAt, last_slot: digest.next_at, claimed_at: null, updated_at: now })
      .where('channel_id', '=', digest.channel_id)
      .where('next_at', '=', digest.next_at)
      .execute();
  }

  /** Sending failed for now: the slot stays due for the next tick. */
  async release(digest: Digest): Promise<void> {
    await this.db
      .updateTable('watch_digests')
      .set({ claimed_at: null })
      .where('channel_id', '=', digest.channel_id)
      .where('next_at', '=', digest.next_at)
      .execute();
  }
}

interface DigestOptions extends PostingOptions {
  digests: () => Promise<DigestRepository>;
  /** The channel's active watches. */
  watchesOf: (channelId: string) => Promise<Watch[]>;
  coverOf: (watch: Watch) => Promise<Cover | undefined>;
  /** The most asked No answers of the last `days` days (the demand store); absent: none. */
  demandOf?: (at: number, days: number, limit: number) => Promise<DemandRow[]>;
}

/** The digest's settings (the command) and its sending (the lease holder's tick). */
export class WatchDigests {
  private readonly now: () => number;

  constructor(private readonly options: DigestOptions) {
    this.now = options.now ?? (() => Date.now());
  }

  async turnOn(input: {
    channelId: string;
    teamId: string;
    userId: string;
    minuteOfDay: number;
    zone: string;
    demand?: boolean;
  }): Promise<DigestSetting> {
    const at = this.now();
    const row = await (await this.options.digests()).set({
      channel_id: input.channelId,
      team_id: input.teamId,
      set_by: input.userId,
      minute_of_day: input.minuteOfDay,
      zone: input.zone,
      next_at: nextSlot(at, input.minuteOfDay, input.zone),
      demand: input.demand ? 1 : 0,
      updated_at: at,
    });
    this.options.logger.info(
      { channel: input.channelId, user: input.userId, minute: input.minuteOfDay, zone: input.zone },
      'watch digest on',
    );
    return settingOf(row);
  }

  async turnOff(channelId: string, userId: string): Promise<boolean> {
    const removed = await (await this.options.digests()).remove(channelId);
    this.options.logger.info({ channel: channelId, user: userId, removed }, 'watch digest off');
    return removed;
  }

  async setting(channelId: string): Promise<DigestSetting | undefined> {
    const row = await (await this.options.digests()).get(channelId);
    return row === undefined ? undefined : settingOf(row);
  }

  /** Sends every slot that is due; run by the lease holder on each tick. */
  async send(): Promise<number> {
    const repo = await this.options.digests();
    const at = this.now();
    let sent = 0;
    for (const digest of await repo.due(at, at - CLAIM_STALE_MS)) {
      if (!(await repo.claim(digest, at, at - CLAIM_STALE_MS))) continue;
      const next = nextSlot(Math.max(at, digest.next_at), digest.minute_of_day, digest.zone);
      try {
        const result = at - digest.next_at > LATE_MS ? 'late' : await this.sendOne(digest, at);
        if (result === 'sent') sent += 1;
        this.options.metrics?.digests.inc({ result });
        await repo.done(digest, next, at);
      } catch (error) {
        this.options.metrics?.digests.inc({ result: 'failed' });
        this.options.logger.warn(
          { err: errorFields(error), channel: digest.channel_id },
          'watch digest not sent',
        );
        // A channel Slack refuses for good gets no more digests; anything else is retried.
        if (error instanceof PostError && error.permanent) await repo.remove(digest.channel_id);
        else await repo.release(digest);
      }
    }
    return sent;
  }

  private async sendOne(digest: Digest, at: number): Promise<'sent' | 'empty'> {
    const past = (await this.options.watchesOf(digest.channel_id)).filter(
      (w) =>
        w.state !== 'off' &&
        w.last_available !== null &&
        isPast(w.direction, w.threshold, w.last_available),
    );
    const { demandOf } = this.options;
    const demand =
      digest.demand === 1 && demandOf
        ? await demandOf(at, DIGEST_DEMAND_DAYS, DIGEST_DEMAND_ROWS)
        : [];
    // Sent when there is something to say: a watch past its threshold, or demand to report.
    if (past.length === 0 && demand.length === 0) return 'empty';
    const watches = await Promise.all(
      past.map(async (w) => summaryOf(w, await this.options.coverOf(w))),
    );
    await this.options.poster.post(
      digest.channel_id,
      watchDigest({ watches, checkedAt: new Date(at), demand }),
    );
    return 'sent';
  }
}

function settingOf(row: Digest): DigestSetting {
  return {
    minuteOfDay: row.minute_of_day,
    zone: row.zone,
    nextAt: new Date(row.next_at),
    demand: row.demand === 1,
  };
}
