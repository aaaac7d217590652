/**
 * Days of cover from generated histories (steady use, a restock, flat, noisy, too short):
 * points are made by the test at chosen times, never by waiting.
 */
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../src/sandbox/prng.js';
import { COVER_MIN_DAYS, daysOfCover, type HistoryPoint } from '../../src/watches/cover.js';

const DAY = 24 * 60 * 60_000;
const T0 = Date.UTC(2026, 10, 1);

/** One point every `stepMs` for `days` days, the quantity given by `at(dayFraction)`. */
function history(days: number, stepMs: number, at: (day: number) => number): HistoryPoint[] {
  const points: HistoryPoint[] = [];
  for (let t = 0; t <= days * DAY; t += stepMs) {
    points.push({ at: T0 + t, available: Math.max(0, Math.round(at(t / DAY))) });
  }
  return points;
}

function last(points: readonly HistoryPoint[]): HistoryPoint {
  const point = points.at(-1);
  if (point === undefined) throw new Error('empty history');
  return point;
}

describe('days of cover', () => {
  it('steady use: the quantity over the daily use, read over the days of history', () => {
    const points = history(10, DAY / 4, (d) => 500 - 20 * d);
    const cover = daysOfCover(points, last(points));
    expect(cover?.windowDays).toBe(10);
    expect(cover?.days).toBeCloseTo(300 / 20, 5);
  });

  it('a restock is left out of the rate', () => {
    // 20 a day for 12 days, with 400 delivered on day 6.
    const points = history(12, DAY / 2, (d) => 300 - 20 * d + (d >= 6 ? 400 : 0));
    const now = last(points);
    expect(now.available).toBe(460);
    const cover = daysOfCover(points, now);
    // The half day's use inside the restock's step goes with it: within 5% of 23 days.
    expect(Math.abs((cover?.days ?? 0) - 460 / 20) / (460 / 20)).toBeLessThan(0.05);
    // Had the delivery counted as negative use, there would be no figure at all.
    expect(cover).toBeDefined();
  });

  it('flat or rising: no days of cover', () => {
    const flat = history(20, DAY / 4, () => 80);
    expect(daysOfCover(flat, last(flat))).toBeUndefined();
    const rising = history(20, DAY, (d) => 10 + 5 * d);
    expect(daysOfCover(rising, last(rising))).toBeUndefined();
  });

  it('noisy use: within a tenth of the true rate, whatever the noise', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = createRandom(seed);
      // Orders of 1 to 4 at random hours (about 15 a day), a return of one now and then.
      let available = 1000;
      const points: HistoryPoint[] = [{ at: T0, available }];
      for (let hour = 1; hour <= 21 * 24; hour += 1) {
        if (random.chance(0.25)) available -= random.int(1, 4);
        if (random.chance(0.02)) available += 1;
        points.push({ at: T0 + hour * 60 * 60_000, available });
      }
      const now = last(points);
      const trueRate = (1000 - now.available) / 21;
      const rate = now.available / (daysOfCover(points, now)?.days ?? Number.NaN);
      expect(Math.abs(rate - trueRate) / trueRate).toBeLessThan(0.1);

      // A reading that jitters by up to 3 either way around 10 a day.
      const jitter = history(14, DAY / 4, (d) => 400 - 10 * d + random.int(-3, 3));
      const jittered = daysOfCover(jitter, last(jitter));
      const jitterRate = last(jitter).available / (jittered?.days ?? Number.NaN);
      expect(Math.abs(jitterRate - 10)).toBeLessThan(1);
    }
  });

  it(`needs ${COVER_MIN_DAYS} days of history: shorter says nothing, never a guess`, () => {
    const short = history(COVER_MIN_DAYS - 0.1, DAY / 8, (d) => 100 - 30 * d);
    expect(daysOfCover(short, last(short))).toBeUndefined();
    const enough = history(COVER_MIN_DAYS, DAY / 8, (d) => 100 - 30 * d);
    expect(daysOfCover(enough, last(enough))?.windowDays).toBe(COVER_MIN_DAYS);
  });

  it('reads at most 30 days back, and nothing when the item is out of stock', () => {
    // Fast use long ago, slow use in the last 30 days.
    const points = history(60, DAY, (d) => (d < 30 ? 3000 - 80 * (d - 30) : 3000 - 10 * (d - 30)));
    const cover = daysOfCover(points, last(points));
    expect(cover?.windowDays).toBe(30);
    expect(cover?.days).toBeCloseTo(2700 / 10, 5);
    const empty = history(10, DAY, (d) => 100 - 10 * d);
    expect(daysOfCover(empty, { at: T0 + 10 * DAY, available: 0 })).toBeUndefined();
  });
});
