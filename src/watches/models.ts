/**
 * A stored watch as the views see it: the summary lists and notices read, and the models of
 * its alert and of a turn told in its thread. Pure mapping, no I/O.
 */
import type { AlertModel, TurnModel } from '../views/watchAlert.js';
import { mentionsOf, type WatchSummary } from '../views/watchWords.js';
import type { Cover } from './cover.js';
import type { Watch } from './repository.js';
import { isPast } from './rules.js';

export function summaryOf(watch: Watch, cover?: Cover): WatchSummary {
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
    ...(watch.last_checked_at === null ? {} : { checkedAt: new Date(watch.last_checked_at) }),
    snoozedUntil: watch.snoozed_until === null ? undefined : new Date(watch.snoozed_until),
    ...(cover === undefined ? {} : { cover }),
  };
}

/**
 * The alert as the data says now. Where it stands is read from the quantity, not only from the
 * recorded state: the state keeps "past" through the re-arm margin and through a snooze (no
 * turn is told then), and the root must never say "below 150" over 200 available.
 */
export function alertModelOf(
  watch: Watch,
  cover: Cover | undefined,
  at: number,
  stoppedBy?: string,
): AlertModel {
  const now = watch.last_available ?? 0;
  const past = isPast(watch.direction, watch.threshold, now);
  return {
    watchId: watch.id,
    code: watch.item_code,
    itemId: watch.item_id,
    description: watch.description,
    branchName: watch.branch_name ?? undefined,
    direction: watch.direction,
    threshold: watch.threshold,
    now,
    onOrder: watch.last_on_order ?? 0,
    checkedAt: new Date(watch.last_checked_at ?? watch.updated_at),
    standing: stoppedBy !== undefined ? 'stopped' : past ? 'past' : 'back',
    crossing:
      watch.crossed_at === null
        ? undefined
        : { before: watch.crossed_before ?? undefined, at: new Date(watch.crossed_at) },
    cover,
    mentions: mentionsOf(watch.notify ?? undefined),
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
    snoozedUntil: watch.snoozed_until === null ? undefined : new Date(watch.snoozed_until),
    asOf: new Date(at),
  };
}

export function turnModelOf(watch: Watch, cover: Cover | undefined): TurnModel {
  const past = watch.state === 'past';
  return {
    code: watch.item_code,
    direction: watch.direction,
    threshold: watch.threshold,
    now: watch.last_available ?? 0,
    standing: past ? 'past' : 'back',
    before: past ? (watch.crossed_before ?? undefined) : undefined,
    checkedAt: new Date(watch.last_checked_at ?? watch.updated_at),
    cover,
    mentions: mentionsOf(watch.notify ?? undefined),
  };
}
