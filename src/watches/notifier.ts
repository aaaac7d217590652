/**
 * Makes Slack match the recorded watch state: posts owed alerts (claimed first, so one
 * replica posts each), updates an alert in place when the quantity moved, marks it over when
 * the watch re-arms, and tells about switch-offs once. Run by the lease holder after each
 * round, and again on the next tick for anything that failed for now.
 *
 * Exactly once: a crossing is recorded (with its number) before anything is posted; the
 * post is claimed, then its `ts` recorded for that crossing. A post that fails is owed again;
 * a claim left by a replica that died mid-post is retried after `CLAIM_STALE_MS`, the one
 * window in which a post that did reach Slack could be repeated.
 */
import type { AppLogger } from '../log/logger.js';
import { errorFields } from '../log/logger.js';
import type { SlackMessage } from '../views/message.js';
import {
  type WatchSummary,
  watchAlert,
  watchedItemGone,
  watchSwitchedOff,
} from '../views/watches.js';
import type { WatchMetrics } from './metrics.js';
import { PostError, slackErrorOf, type WatchPoster } from './poster.js';
import type { Watch, WatchRepository } from './repository.js';

export const CLAIM_STALE_MS = 5 * 60_000;

export function summaryOf(watch: Watch): WatchSummary {
  return {
    id: watch.id,
    channelId: watch.channel_id,
    creatorId: watch.creator_id,
    code: watch.item_code,
    itemId: watch.item_id,
    branchName: watch.branch_name ?? undefined,
    direction: watch.direction,
    threshold: watch.threshold,
    state: watch.state,
    offReason: watch.off_reason ?? undefined,
    lastAvailable: watch.last_available ?? undefined,
    snoozedUntil: watch.snoozed_until === null ? undefined : new Date(watch.snoozed_until),
  };
}

export function alertOf(watch: Watch, rearmed: boolean): SlackMessage {
  return watchAlert({
    code: watch.item_code,
    itemId: watch.item_id,
    description: watch.description,
    branchName: watch.branch_name ?? undefined,
    direction: watch.direction,
    threshold: watch.threshold,
    now: watch.last_available ?? 0,
    before: watch.crossed_before ?? undefined,
    onOrder: watch.last_on_order ?? 0,
    checkedAt: new Date(watch.last_checked_at ?? watch.updated_at),
    rearmed,
  });
}

export interface NotifierOptions {
  repo: () => Promise<WatchRepository>;
  poster: WatchPoster;
  logger: AppLogger;
  metrics?: WatchMetrics;
  now?: () => number;
}

export class WatchNotifier {
  private readonly now: () => number;

  constructor(private readonly options: NotifierOptions) {
    this.now = options.now ?? Date.now;
  }

  async reconcile(): Promise<void> {
    const repo = await this.options.repo();
    const at = this.now();
    const pending = await repo.pendingNotices(at - CLAIM_STALE_MS);
    const off: Watch[] = [];
    for (const watch of pending) {
      if (watch.state === 'off') off.push(watch);
      else if (watch.state === 'past' && watch.alert_owed !== 0) await this.post(repo, watch, at);
      else if (watch.alert_ts !== null) await this.refresh(repo, watch, watch.alert_ts, at);
    }
    await this.tellSwitchedOff(repo, off);
  }

  private async post(repo: WatchRepository, watch: Watch, at: number): Promise<void> {
    if (!(await repo.claimAlert(watch, at, at - CLAIM_STALE_MS))) return;
    try {
      const { ts } = await this.options.poster.post(watch.channel_id, alertOf(watch, false));
      await repo.alertPosted(watch, ts, watch.last_available ?? 0);
      this.options.metrics?.alerts.inc({ result: 'posted' });
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

  /** Past: the alert shows the new quantity. Re-armed: the alert says it is over. */
  private async refresh(
    repo: WatchRepository,
    watch: Watch,
    ts: string,
    at: number,
  ): Promise<void> {
    const rearmed = watch.state === 'armed';
    try {
      await this.options.poster.update(watch.channel_id, ts, alertOf(watch, rearmed));
      this.options.metrics?.alerts.inc({ result: 'updated' });
    } catch (error) {
      this.options.metrics?.alerts.inc({ result: 'failed' });
      if (await this.switchOffIfPermanent(repo, watch, error, at)) return;
      // A deleted alert cannot be updated; anything else is tried again next pass.
      if (
        slackErrorOf(error) !== 'message_not_found' &&
        slackErrorOf(error) !== 'cant_update_message'
      ) {
        return;
      }
    }
    if (rearmed) await repo.alertClosed(watch, ts);
    else await repo.alertShown(watch, ts, watch.last_available ?? 0);
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
