/**
 * Makes Slack match the recorded watch state, one thread per watch: the first crossing posts
 * the alert (the thread's root); every later crossing, and every return to the other side, is
 * a reply in its thread (not broadcast), and the root's first line is updated to say where the
 * watch stands now. While past, a moved quantity updates the root in place. Switch-offs are
 * told once. Run by the lease holder after each round, and again on the next tick for
 * anything that failed for now.
 *
 * Exactly once: a turn (crossing or return) is recorded with its number before anything is
 * posted; telling it is claimed for that number, then recorded as told. A post that fails is
 * owed again; a claim left by a replica that died mid-post is retried after `CLAIM_STALE_MS`,
 * the one window in which a message that did reach Slack could be repeated. The root's `ts` is
 * kept in the row, so after a restart or on another replica replies go to the same thread.
 */
import { type AppLogger, errorFields } from '../log/logger.js';
import type { SlackMessage } from '../views/message.js';
import { oneShotAlert } from '../views/oneShot.js';
import { watchAlert, watchPressNote, watchTurnReply } from '../views/watchAlert.js';
import { watchedItemGone, watchSwitchedOff } from '../views/watchNotices.js';
import { ACCESS_REVOKED, type MayWatch, passes } from './accessScreen.js';
import type { Cover } from './cover.js';
import type { HistoryRepository } from './history.js';
import type { WatchMetrics } from './metrics.js';
import { alertModelOf, summaryOf, turnModelOf } from './models.js';
import { PostError, slackErrorOf, type WatchPoster } from './poster.js';
import type { Watch, WatchRepository } from './repository.js';

export const CLAIM_STALE_MS = 5 * 60_000;

/** Slack's answers when the thread's root message was deleted. */
const ROOT_GONE: ReadonlySet<string> = new Set([
  'message_not_found',
  'thread_not_found',
  'cant_update_message',
]);

/** What the parts that post watch messages (the alerts, the digests) are given. */
export interface PostingOptions {
  poster: WatchPoster;
  logger: AppLogger;
  metrics?: WatchMetrics;
  now?: () => number;
}

interface NotifierOptions extends PostingOptions {
  /** The access lists, asked again before every post: refused watches are switched off. */
  mayWatch?: MayWatch;
  repo: () => Promise<WatchRepository>;
  /** Where days of cover come from; absent: alerts say nothing about cover. */
  history?: () => Promise<HistoryRepository>;
}

export class WatchNotifier {
  private readonly now: () => number;

  constructor(private readonly options: NotifierOptions) {
    this.now = options.now ?? Date.now;
  }

  async reconcile(): Promise<void> {
    const repo = await this.options.repo();
    const at = this.now();
    const pending = await repo.pendingNotices(at - CLAIM_STALE_MS, at);
    const off: Watch[] = [];
    const { mayWatch } = this.options;
    for (const watch of pending) {
      if (watch.state !== 'off' && mayWatch && !passes(mayWatch, watch)) {
        // Tightened lists: nothing more is posted for it; its creator is told below, once.
        if (await repo.switchOff(watch, ACCESS_REVOKED, at)) off.push(watch);
        continue;
      }
      if (watch.state === 'off') off.push(watch);
      else if (watch.alert_owed !== 0) await this.tellTurn(repo, watch, at);
      else if (watch.alert_ts !== null) await this.refresh(repo, watch, watch.alert_ts, at);
    }
    await this.tellSwitchedOff(repo, off);
  }

  /** Days of cover for a watch, or nothing (no history, or it cannot be read now). */
  async coverOf(watch: Watch): Promise<Cover | undefined> {
    if (this.options.history === undefined) return undefined;
    try {
      return await (await this.options.history()).coverOf(watch);
    } catch (error) {
      this.options.logger.info({ err: errorFields(error) }, 'days of cover not read');
      return undefined;
    }
  }

  /** The current turn: the root for a first crossing, else a reply in the thread. */
  private async tellTurn(repo: WatchRepository, watch: Watch, at: number): Promise<void> {
    if (!(await repo.claimAlert(watch, at, at - CLAIM_STALE_MS))) return;
    const root = watch.alert_ts;
    if (root === null && watch.state !== 'past') {
      // A return from a crossing never announced: nothing to tell.
      await repo.turnTold(watch, null);
      return;
    }
    if (watch.once === 1) {
      await this.tellOnce(repo, watch, at);
      return;
    }
    const cover = await this.coverOf(watch);
    try {
      if (root === null) {
        const { ts } = await this.options.poster.post(
          watch.channel_id,
          watchAlert(alertModelOf(watch, cover, at)),
        );
        await repo.rootPosted(watch, ts);
        this.options.metrics?.alerts.inc({ result: 'posted' });
      } else {
        if (!(await this.reply(repo, watch, root, turnModelOf(watch, cover)))) return;
        await this.updateRoot(repo, watch, root, cover, at);
      }
      await repo.turnTold(watch, watch.last_available);
    } catch (error) {
      this.options.metrics?.alerts.inc({ result: 'failed' });
      if (await this.switchOffIfPermanent(repo, watch, error, at)) return;
      await repo.alertStillOwed(watch);
      this.options.logger.warn(
        { err: errorFields(error), watch: watch.id },
        'watch alert not posted; it stays owed',
      );
    }
  }

  /**
   * A one-shot's only message: the verdict turned, in the thread it was asked in (no thread
   * root kept, no Snooze or Stop); then it goes. The claim above makes it one replica's.
   */
  private async tellOnce(repo: WatchRepository, watch: Watch, at: number): Promise<void> {
    try {
      const alert = oneShotAlert({
        code: watch.item_code,
        quantity: watch.threshold,
        branchName: watch.branch_name ?? undefined,
        itemId: watch.item_id,
        available: watch.last_available ?? 0,
        checkedAt: new Date(watch.last_checked_at ?? at),
      });
      await this.options.poster
        .post(watch.channel_id, alert, watch.thread_ts ?? undefined)
        .catch((error: unknown) => {
          // The thread it was asked in is gone (deleted): said at the top of it instead.
          if (watch.thread_ts === null || !ROOT_GONE.has(slackErrorOf(error))) throw error;
          return this.options.poster.post(watch.channel_id, alert);
        });
      this.options.metrics?.alerts.inc({ result: 'posted' });
      await repo.turnTold(watch, watch.last_available);
      await repo.remove(watch.id);
    } catch (error) {
      this.options.metrics?.alerts.inc({ result: 'failed' });
      if (await this.switchOffIfPermanent(repo, watch, error, at)) return;
      await repo.alertStillOwed(watch);
      this.options.logger.warn(
        { err: errorFields(error), watch: watch.id },
        'one-shot alert not posted; it stays owed',
      );
    }
  }

  /** False when the root is gone: the turn stays owed and starts a new thread next pass. */
  private async reply(
    repo: WatchRepository,
    watch: Watch,
    root: string,
    turn: ReturnType<typeof turnModelOf>,
  ): Promise<boolean> {
    try {
      await this.options.poster.post(watch.channel_id, watchTurnReply(turn), root);
      this.options.metrics?.alerts.inc({ result: 'replied' });
      return true;
    } catch (error) {
      if (!ROOT_GONE.has(slackErrorOf(error))) throw error;
      await repo.rootGone(watch, root);
      await repo.alertStillOwed(watch);
      return false;
    }
  }

  /** The root's first line says where the watch stands now; a failure here is not retried. */
  private async updateRoot(
    repo: WatchRepository,
    watch: Watch,
    root: string,
    cover: Cover | undefined,
    at: number,
  ): Promise<void> {
    try {
      await this.redraw(watch, root, cover, at);
    } catch (error) {
      if (ROOT_GONE.has(slackErrorOf(error))) await repo.rootGone(watch, root);
      else if (error instanceof PostError && error.permanent) throw error;
      else this.options.logger.info({ slackError: slackErrorOf(error) }, 'watch alert not updated');
    }
  }

  /**
   * A press on Snooze or Stop watching, said in the watch's thread with who pressed it (and a
   * stopped watch's root says so); nothing without a thread. Never throws: the press itself
   * is done and logged whatever Slack answers.
   */
  async pressed(
    watch: Watch,
    userId: string,
    press: { kind: 'snooze'; until: Date } | { kind: 'stop' },
  ): Promise<void> {
    const root = watch.alert_ts;
    if (root === null) return;
    const at = this.now();
    try {
      const note = watchPressNote(userId, press, new Date(at));
      await this.options.poster.post(watch.channel_id, note, root);
      // The root says it is stopped, or snoozed until when (and stops leading with mentions).
      const model = alertModelOf(watch, undefined, at, press.kind === 'stop' ? userId : undefined);
      await this.options.poster.update(watch.channel_id, root, watchAlert(model));
    } catch (error) {
      this.options.logger.info({ slackError: slackErrorOf(error) }, 'watch press not told');
    }
  }

  /** Still past and the quantity moved: the root shows the new quantity. */
  private async refresh(
    repo: WatchRepository,
    watch: Watch,
    ts: string,
    at: number,
  ): Promise<void> {
    const cover = await this.coverOf(watch);
    try {
      await this.redraw(watch, ts, cover, at);
    } catch (error) {
      this.options.metrics?.alerts.inc({ result: 'failed' });
      if (await this.switchOffIfPermanent(repo, watch, error, at)) return;
      // A deleted alert cannot be updated: the next crossing starts a new thread. Anything
      // else is tried again next pass.
      if (ROOT_GONE.has(slackErrorOf(error))) await repo.rootGone(watch, ts);
      return;
    }
    await repo.alertShown(watch, ts, watch.last_available ?? 0);
  }

  /** The root redrawn from the watch as recorded now; a Slack failure is the caller's. */
  private async redraw(
    watch: Watch,
    root: string,
    cover: Cover | undefined,
    at: number,
  ): Promise<void> {
    await this.options.poster.update(
      watch.channel_id,
      root,
      watchAlert(alertModelOf(watch, cover, at)),
    );
    this.options.metrics?.alerts.inc({ result: 'updated' });
  }

  private async switchOffIfPermanent(
    repo: WatchRepository,
    watch: Watch,
    error: unknown,
    at: number,
  ): Promise<boolean> {
    const code = slackErrorOf(error);
    if (!(error instanceof PostError ? error.permanent : false)) return false;
    if (await repo.switchOff(watch, code, at)) {
      this.options.logger.info(
        { watch: watch.id, reason: code },
        'watch switched off: Slack refuses its channel',
      );
    }
    return true;
  }

  /**
   * A watch switched off because of Slack: its creator gets one direct message. An item gone
   * from the ERP: one message in each channel, however many watches it had there.
   */
  private async tellSwitchedOff(repo: WatchRepository, off: readonly Watch[]): Promise<void> {
    if (off.length === 0) return;
    const claimed = await repo.claimOffNotices(off.map((w) => w.id));
    const gone = new Map<string, Watch[]>();
    for (const watch of claimed) {
      if (watch.off_reason === 'item_gone') {
        const key = `${watch.channel_id}\u0000${watch.item_code}`;
        gone.set(key, [...(gone.get(key) ?? []), watch]);
      } else {
        await this.tell(watch.creator_id, watchSwitchedOff(summaryOf(watch)));
      }
    }
    for (const watches of gone.values()) {
      const first = watches[0];
      if (first)
        await this.tell(first.channel_id, watchedItemGone(first.item_code, watches.length));
    }
  }

  /** Told once, whatever happens: a notice that cannot be delivered is not retried. */
  private async tell(channel: string, message: SlackMessage): Promise<void> {
    try {
      await this.options.poster.post(channel, message);
    } catch (error) {
      this.options.logger.info(
        { slackError: slackErrorOf(error) },
        'watch switch-off notice not delivered',
      );
    }
  }
}
