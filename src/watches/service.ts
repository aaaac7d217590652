/**
 * What the listeners call: create, list, remove, unwatch, snooze. Words stay in
 * `src/views/watches.ts`; this hands back data (a refusal's reason, the watches, the interval).
 */
import { NotFoundError } from '../erp/errors.js';
import type { BranchStock, Item } from '../erp/schemas.js';
import type { ReplaceQuestion, WatchRefusal } from '../views/watchNotices.js';
import type { WatchSummary } from '../views/watchWords.js';
import { matchBranch, matchesBranchWord } from './branchWords.js';
import { oneShotThread, postConfirmation } from './confirmation.js';
import type { Cover } from './cover.js';
import { summaryOf } from './models.js';
import { PostError, slackErrorOf, type WatchPoster } from './poster.js';
import {
  branchKey,
  onceKeyOf,
  type Watch,
  WatchHeldByOtherError,
  type WatchRepository,
} from './repository.js';
import { isPast, readItem } from './rules.js';
import type { WatchDirection } from './schema.js';

export interface WatchLimits {
  /** WATCH_SHARE: 0..1 of the getItem budget. */
  share: number;
  /** getItem calls a minute the ERP allows (the budget's limit). */
  getItemPerMinute: number;
  /** WATCH_MIN_INTERVAL_SECONDS. */
  minIntervalSeconds: number;
  /** WATCH_MAX_INTERVAL_MINUTES. */
  maxIntervalMinutes: number;
  /** WATCH_MAX_PER_CHANNEL. */
  maxPerChannel: number;
  /** WATCH_MAX_PER_USER. */
  maxPerUser: number;
}

/** About items ÷ (share × limit) minutes between two checks of one item, never under the floor. */
export function checkIntervalSeconds(items: number, limits: WatchLimits): number {
  const perMinute = limits.share * limits.getItemPerMinute;
  const seconds = perMinute <= 0 ? Number.POSITIVE_INFINITY : (items / perMinute) * 60;
  return Math.max(limits.minIntervalSeconds, seconds);
}

interface CreateWatchInput {
  teamId: string;
  channelId: string;
  userId: string;
  code: string;
  /** A branch as the user typed it (name, start of a name, or id); undefined: company-wide. */
  branch: string | undefined;
  direction: WatchDirection;
  threshold: number;
  /** `notify`: Slack mention tokens already checked by the parser (`<@U…>`, `<!subteam^S…>`). */
  notify?: readonly string[];
  /**
   * The person said yes to replacing their own watch on the same item, place and direction
   * (the Replace button). Without it, such a watch is not replaced: they are asked first.
   */
  replace?: boolean;
  /** One-shot ("Tell me when it's Yes"): its first alert is its only one. */
  once?: boolean;
  /**
   * A one-shot's thread: the message its button sat on, or that message's thread. Absent in
   * a channel: it answers in its own confirmation's thread; in a direct message, at the top.
   */
  threadTs?: string;
}

type CreateWatchResult =
  | { ok: true; watch: WatchSummary; intervalSeconds: number; past: boolean }
  /** Refused: bad input, a limit, or whose it is (another person's watch there, a quota). */
  | { ok: false; refusal: WatchRefusal }
  /** The confirmation could not be posted: no watch; tell the user how to fix it. */
  | { ok: false; cannotPost: string }
  /** Their own watch is on that key: nothing changed, they are asked before it is replaced. */
  | { ok: false; replace: ReplaceQuestion };

/**
 * The confirmation was posted but the watch could not be saved: no watch exists, and the
 * confirmation was deleted again unless `confirmationLeft` (then the channel still shows it).
 */
export class WatchNotSavedError extends Error {
  readonly code = 'watch_not_saved';
  constructor(
    readonly confirmationLeft: boolean,
    options: { cause?: unknown } = {},
  ) {
    super('the watch could not be saved after its confirmation was posted', options);
    this.name = 'WatchNotSavedError';
  }
}

/** What a listener tells the user when creating or changing a watch failed past the ERP. */
export function refusalOfFailure(error: unknown): WatchRefusal {
  return error instanceof WatchNotSavedError
    ? { reason: 'not_saved', confirmationLeft: error.confirmationLeft }
    : { reason: 'store_unavailable' };
}

interface WatchServiceOptions {
  repo: () => Promise<WatchRepository>;
  /** Fetches an item through the lookup service (budget, cache) for the user who asks. */
  fetchItem: (code: string, requester: string) => Promise<Item>;
  poster: WatchPoster;
  limits: WatchLimits;
  /** Set when watches cannot run here (several replicas sharing Redis, no database). */
  disabled?: 'shared_without_database';
  now?: () => number;
  /** Told when the set of watched items may have changed (the feed's watched-code set). */
  onChange?: () => void;
  /** Says a Snooze or Stop watching in the watch's thread, and reads days of cover. */
  story?: WatchStory;
}

/** The parts of the notifier the service uses (src/watches/notifier.ts). */
interface WatchStory {
  pressed(
    watch: Watch,
    userId: string,
    press: { kind: 'snooze'; until: Date } | { kind: 'stop' },
  ): Promise<void>;
  coverOf(watch: Watch): Promise<Cover | undefined>;
}

/** `/stock unwatch`: what was removed, or several matched and the user is asked first. */
type UnwatchResult = { removed: WatchSummary[] } | { confirm: WatchSummary[] };

export class WatchService {
  private readonly now: () => number;

  constructor(private readonly options: WatchServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  get limits(): WatchLimits {
    return this.options.limits;
  }

  async create(input: CreateWatchInput): Promise<CreateWatchResult> {
    if (this.options.disabled) return refuse({ reason: 'watches_off_shared_without_database' });
    if (!Number.isFinite(input.threshold) || input.threshold < 0)
      return refuse({ reason: 'bad_threshold' });
    const repo = await this.options.repo();
    const { limits } = this.options;
    if ((await repo.countActiveInChannel(input.channelId)) >= limits.maxPerChannel) {
      return refuse({ reason: 'channel_full', max: limits.maxPerChannel });
    }
    // Counted before the global interval: one person cannot fill everyone's capacity.
    if ((await repo.countActiveByCreator(input.userId)) >= limits.maxPerUser) {
      return refuse({ reason: 'user_full', max: limits.maxPerUser });
    }
    let item: Item;
    try {
      item = await this.options.fetchItem(input.code, input.userId);
    } catch (error) {
      if (error instanceof NotFoundError)
        return refuse({ reason: 'item_not_found', code: input.code });
      throw error;
    }
    const items = await repo.activeItems();
    const added = items.some((i) => i.code === item.code) ? 0 : 1;
    const intervalSeconds = checkIntervalSeconds(items.length + added, limits);
    if (intervalSeconds > limits.maxIntervalMinutes * 60) {
      return refuse({
        reason: 'interval_too_long',
        intervalMinutes: Math.ceil(intervalSeconds / 60),
        maxMinutes: limits.maxIntervalMinutes,
      });
    }
    let branch: BranchStock | undefined;
    if (input.branch !== undefined) {
      branch = matchBranch(item.branches, input.branch);
      if (branch === undefined) {
        return refuse({
          reason: 'branch_not_found',
          branch: input.branch,
          branches: item.branches.map((b) => b.name),
        });
      }
    }
    const reading = readItem(item, branch?.id);
    if (reading === undefined)
      return refuse({ reason: 'branch_not_found', branch: input.branch ?? '', branches: [] });
    // A watch belongs to its creator: another person's on the same key is never overwritten,
    // and the creator's own is replaced only once they said so. One switched off holds
    // nothing (src/watches/repository.ts): it is replaced without asking.
    // A one-shot has its own key (its creator's and thread's): it never meets an ordinary
    // watch, and pressing again in the same place just renews it.
    const onceKey = input.once ? onceKeyOf({ creatorId: input.userId, ...input }) : '';
    const existing = await repo.activeOn(
      input.channelId,
      item.code,
      branchKey(branch?.id),
      input.direction,
      onceKey,
    );
    if (existing !== undefined && existing.creator_id !== input.userId) {
      return refuse({ reason: 'watched_by_other', creatorId: existing.creator_id });
    }
    if (existing !== undefined && input.replace !== true && !input.once) {
      return {
        ok: false,
        replace: {
          existing: summaryOf(existing),
          proposed: {
            channelId: input.channelId,
            code: item.code,
            branchName: branch?.name,
            direction: input.direction,
            threshold: input.threshold,
            notify: input.notify ?? [],
          },
        },
      };
    }
    const past = isPast(input.direction, input.threshold, reading.available);
    const at = this.now();
    const draft: WatchSummary = {
      id: '',
      channelId: input.channelId,
      creatorId: input.userId,
      code: item.code,
      itemId: item.id,
      branchName: branch?.name,
      direction: input.direction,
      threshold: input.threshold,
      state: past ? 'past' : 'armed',
      offReason: undefined,
      lastAvailable: reading.available,
      snoozedUntil: undefined,
    };
    // Posting first proves the app can post there: if not, no watch is made. The insert
    // comes after, so a confirmation whose watch is not saved is taken back below.
    const notify = input.notify && input.notify.length > 0 ? input.notify.join(' ') : undefined;
    let confirmation: { ts: string };
    try {
      const posted = await postConfirmation(this.options.poster, input, item, {
        watch: draft,
        available: reading.available,
        past,
        at,
        intervalSeconds,
        notify,
      });
      if (posted === 'told') return { ok: true, watch: draft, intervalSeconds, past };
      confirmation = posted;
    } catch (error) {
      if (error instanceof PostError) return { ok: false, cannotPost: slackErrorOf(error) };
      throw error;
    }
    let row: Watch;
    try {
      row = await repo.upsert({
        teamId: input.teamId,
        channelId: input.channelId,
        creatorId: input.userId,
        itemCode: item.code,
        itemId: item.id,
        description: item.description,
        branch: branch === undefined ? undefined : { id: branch.id, name: branch.name },
        direction: input.direction,
        threshold: input.threshold,
        available: reading.available,
        onOrder: reading.onOrder,
        past,
        at,
        ...(notify === undefined ? {} : { notify }),
        ...(input.once ? { once: true, onceKey, ...oneShotThread(input, confirmation.ts) } : {}),
      });
    } catch (error) {
      if (error instanceof WatchHeldByOtherError) {
        // Another person set it between the look above and the insert: theirs stands.
        await this.options.poster.delete(input.channelId, confirmation.ts).catch(() => undefined);
        const other = await repo.activeOn(
          input.channelId,
          item.code,
          branchKey(branch?.id),
          input.direction,
          onceKey,
        );
        return refuse({ reason: 'watched_by_other', creatorId: other?.creator_id ?? '' });
      }
      const removed = await this.options.poster
        .delete(input.channelId, confirmation.ts)
        .then(() => true)
        .catch(() => false);
      throw new WatchNotSavedError(!removed, { cause: error });
    }
    this.options.onChange?.();
    return { ok: true, watch: summaryOf(row), intervalSeconds, past };
  }

  /** The current interval between two checks of an item, in seconds. */
  async intervalSeconds(): Promise<number> {
    const repo = await this.options.repo();
    return checkIntervalSeconds((await repo.activeItems()).length, this.options.limits);
  }

  async listChannel(
    channelId: string,
  ): Promise<{ watches: WatchSummary[]; intervalSeconds: number }> {
    const repo = await this.options.repo();
    return {
      watches: await this.withCover(await repo.listByChannel(channelId)),
      intervalSeconds: await this.intervalSeconds(),
    };
  }

  async listMine(userId: string): Promise<{ watches: WatchSummary[]; intervalSeconds: number }> {
    const repo = await this.options.repo();
    return {
      watches: await this.withCover(await repo.listByCreator(userId)),
      intervalSeconds: await this.intervalSeconds(),
    };
  }

  /** Summaries with days of cover (read from history: no ERP call). */
  private async withCover(watches: readonly Watch[]): Promise<WatchSummary[]> {
    const { story } = this.options;
    return Promise.all(
      watches.map(async (w) =>
        summaryOf(w, w.state === 'off' || !story ? undefined : await story.coverOf(w)),
      ),
    );
  }

  /**
   * Remove and Stop watching: `channelId` is where it was clicked; a watch elsewhere is not
   * touched. `by` pressed it: the watch's thread says so, and its alert says it is stopped.
   */
  async remove(
    id: string,
    channelId: string | undefined,
    by?: string,
  ): Promise<WatchSummary | undefined> {
    const repo = await this.options.repo();
    const watch = await repo.get(id);
    if (watch === undefined || (channelId !== undefined && watch.channel_id !== channelId))
      return undefined;
    const removed = await repo.remove(id);
    this.options.onChange?.();
    if (removed === undefined) return undefined;
    if (by !== undefined) await this.options.story?.pressed(removed, by, { kind: 'stop' });
    return summaryOf(removed);
  }

  /** Remove all, after `/stock unwatch` asked: only those still in this channel. */
  async removeMany(
    ids: readonly string[],
    channelId: string | undefined,
    by: string,
  ): Promise<WatchSummary[]> {
    const removed: WatchSummary[] = [];
    for (const id of ids) {
      const one = await this.remove(id, channelId, by);
      if (one) removed.push(one);
    }
    return removed;
  }

  /**
   * `/stock unwatch CODE [at BRANCH]`: the branch matched against the watches' own names. One
   * watch is removed at once; several are only listed, for the user to confirm.
   */
  async unwatch(
    channelId: string,
    code: string,
    branch: string | undefined,
    by: string,
  ): Promise<UnwatchResult> {
    const repo = await this.options.repo();
    const watches = (await repo.listByChannel(channelId)).filter(
      (w) => w.item_code.toLowerCase() === code.toLowerCase(),
    );
    let branchId: number | undefined;
    if (branch !== undefined) {
      const named = watches.filter(
        (w) => w.branch_name !== null && matchesBranchWord(w.branch_name, w.branch_key, branch),
      );
      if (named.length === 0) return { removed: [] };
      branchId = Number(named[0]?.branch_key);
    }
    const matching = watches.filter(
      (w) => branchId === undefined || w.branch_key === String(branchId),
    );
    const [only, ...others] = matching;
    if (only === undefined) return { removed: [] };
    if (others.length > 0) return { confirm: matching.map((w) => summaryOf(w)) };
    const removed = await this.remove(only.id, channelId, by);
    return { removed: removed ? [removed] : [] };
  }

  /** Snooze, from a list or the alert; `by` pressed it: the watch's thread says so. */
  async snooze(
    id: string,
    days: 1 | 7,
    channelId: string | undefined,
    by?: string,
  ): Promise<{ watch: WatchSummary; until: Date } | undefined> {
    const repo = await this.options.repo();
    const watch = await repo.get(id);
    if (watch === undefined || (channelId !== undefined && watch.channel_id !== channelId))
      return undefined;
    const at = this.now();
    const until = new Date(at + days * 24 * 60 * 60_000);
    const snoozed = await repo.snooze(id, until.getTime(), at);
    if (snoozed === undefined) return undefined;
    if (by !== undefined) await this.options.story?.pressed(snoozed, by, { kind: 'snooze', until });
    return { watch: summaryOf(snoozed), until };
  }

  /**
   * Slack said a channel or a whole workspace is gone for the app (archived, deleted, the app
   * uninstalled, its tokens revoked): its watches are switched off with that reason. Returns
   * those switched off now; the caller tells their creators once, where it still can.
   */
  async switchOff(
    where: { channelId: string } | { teamId: string },
    reason: string,
  ): Promise<WatchSummary[]> {
    const repo = await this.options.repo();
    const at = this.now();
    const off: WatchSummary[] = [];
    for (const watch of await repo.activeWhere(where)) {
      if (await repo.switchOff(watch, reason, at)) {
        off.push(summaryOf({ ...watch, state: 'off', off_reason: reason }));
      }
    }
    if (off.length > 0) this.options.onChange?.();
    return off;
  }

  /** Claims the one switch-off notice of each; returns those the caller must send. */
  async claimOffNotices(ids: readonly string[]): Promise<WatchSummary[]> {
    const repo = await this.options.repo();
    return (await repo.claimOffNotices(ids)).map((w) => summaryOf(w));
  }
}

function refuse(refusal: WatchRefusal): CreateWatchResult {
  return { ok: false, refusal };
}
