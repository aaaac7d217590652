/**
 * Proofs for the budget ledger: random interleavings of acquire, complete, cancel, block (a
 * 429's pause) and clock steps, many requesters (users, the readiness probe, a background
 * requester with its own share), in memory and on a real Redis shared by two replicas.
 *
 * What the ERP may count: it receives each call somewhere between its send and its answer, so
 * a call can fall in the span [t, t + window) whenever it was sent before t + window and
 * answered at or after t (a call never answered: always). The ledger must keep that count at
 * most `limit` for EVERY t, whoever made the calls, and at most a requester's share for each
 * requester's own calls; a background requester never takes the last free slot.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { BudgetQueue } from '../../src/lookup/fairQueue.js';
import {
  type AcquireTerms,
  fairShare,
  type Ledger,
  MemoryLedger,
  type Slot,
} from '../../src/lookup/ledger.js';
import { createMetrics } from '../../src/lookup/metrics.js';
import { RedisHealth } from '../../src/lookup/redis.js';
import { RedisLedger } from '../../src/lookup/redisLedger.js';
import { sharedRedisOrSkip } from '../helpers/redis.js';
import { silentLogger } from './fakes.js';

interface Call {
  requester: string;
  sentAt: number;
  /** Undefined while in flight (the ERP may receive it at any time from `sentAt`). */
  doneAt: number | undefined;
}

/** The most calls the ERP may count in one `windowMs` span, over `calls` (all or one requester's). */
function mostInAnyWindow(calls: readonly Call[], windowMs: number): number {
  // The count only drops when t passes an answer, so its maximum is at some t = doneAt (or,
  // with nothing answered, anywhere: every call counts).
  const starts = calls.flatMap((call) => (call.doneAt === undefined ? [] : [call.doneAt]));
  if (starts.length === 0) return calls.length;
  let most = 0;
  for (const t of starts) {
    const counted = calls.filter(
      (call) => call.sentAt < t + windowMs && (call.doneAt === undefined || call.doneAt >= t),
    ).length;
    most = Math.max(most, counted);
  }
  return most;
}

/** Calls that may still be in the ERP's window at `now` (what "a free slot" is measured against). */
function liveAt(calls: readonly Call[], now: number, windowMs: number): number {
  return calls.filter((call) => call.doneAt === undefined || call.doneAt + windowMs > now).length;
}

const BACKGROUND = '(background)';
const REQUESTERS = ['U1', 'U2', 'U3', 'readiness', 'start-up check', BACKGROUND];

type Step =
  | { kind: 'acquire'; who: number; replica: number }
  | { kind: 'complete'; pick: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'block'; ms: number }
  | { kind: 'tick'; ms: number };

const step = (maxTick: number, maxBlock: number, windowMs: number): fc.Arbitrary<Step> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('acquire' as const),
        who: fc.nat(REQUESTERS.length - 1),
        replica: fc.nat(1),
      }),
    },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('complete' as const), pick: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('block' as const), ms: fc.nat(maxBlock) }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('tick' as const),
        // Steps that land exactly on a window's edge find off-by-one releases.
        ms: fc.oneof(fc.nat(maxTick), fc.constantFrom(1, windowMs - 1, windowMs)),
      }),
    },
  );

interface Run {
  limit: number;
  share: number;
  backgroundShare: number;
  windowMs: number;
  calls: Call[];
  /** Live calls at each background grant, that grant included. */
  backgroundLive: number[];
}

/** Plays `steps` against the replicas' ledgers; `now` reads the clock the ledgers use. */
async function play(
  replicas: readonly Ledger[],
  steps: readonly Step[],
  options: {
    windowMs: number;
    backgroundShare: number;
    now: () => number;
    advance: (ms: number) => Promise<void>;
  },
): Promise<Run> {
  const first = replicas[0];
  if (!first) throw new Error('no ledger');
  const calls: Call[] = [];
  const inFlight: Array<{ slot: Slot; call: Call; ledger: Ledger }> = [];
  const backgroundLive: number[] = [];
  for (const s of steps) {
    if (s.kind === 'acquire') {
      const requester = REQUESTERS[s.who] ?? 'U1';
      const ledger = replicas[s.replica % replicas.length] ?? first;
      const terms: AcquireTerms =
        requester === BACKGROUND ? { share: options.backgroundShare, keepFree: 1 } : {};
      const result = await ledger.tryAcquire(requester, terms);
      if (result.granted) {
        const call: Call = { requester, sentAt: options.now(), doneAt: undefined };
        calls.push(call);
        inFlight.push({ slot: result.slot, call, ledger });
        if (requester === BACKGROUND) {
          backgroundLive.push(liveAt(calls, call.sentAt, options.windowMs));
        }
      } else {
        expect(result.waitMs).toBeGreaterThan(0);
      }
    } else if (s.kind === 'complete' || s.kind === 'cancel') {
      if (inFlight.length === 0) continue;
      const [held] = inFlight.splice(s.pick % inFlight.length, 1);
      if (!held) continue;
      if (s.kind === 'complete') {
        held.call.doneAt = options.now();
        held.ledger.complete(held.slot);
      } else {
        // No request was made: the ERP never saw it.
        calls.splice(calls.indexOf(held.call), 1);
        held.ledger.cancel(held.slot);
      }
    } else if (s.kind === 'block') {
      first.block(s.ms);
    } else {
      await options.advance(s.ms);
    }
  }
  return {
    limit: first.limit,
    share: first.share,
    backgroundShare: options.backgroundShare,
    windowMs: options.windowMs,
    calls,
    backgroundLive,
  };
}

function checkInvariants(run: Run): void {
  expect(mostInAnyWindow(run.calls, run.windowMs)).toBeLessThanOrEqual(run.limit);
  for (const requester of REQUESTERS) {
    const own = run.calls.filter((call) => call.requester === requester);
    const share = requester === BACKGROUND ? Math.min(run.share, run.backgroundShare) : run.share;
    expect(mostInAnyWindow(own, run.windowMs)).toBeLessThanOrEqual(share);
  }
  // Never the last free slot: after a background grant, at least one is still free.
  for (const live of run.backgroundLive) expect(live).toBeLessThanOrEqual(run.limit - 1);
}

const shape = fc.record({
  limit: fc.integer({ min: 1, max: 6 }),
  reserve: fc.constantFrom(0, 1 / 6, 1 / 3, 1 / 2),
  backgroundShare: fc.integer({ min: 1, max: 3 }),
});

describe('the memory ledger, over random interleavings', () => {
  it('never lets the ERP count more than the limit, or a requester more than its share', async () => {
    await fc.assert(
      fc.asyncProperty(
        shape,
        fc.array(step(1_500, 3_000, 1_000), { maxLength: 80 }),
        async (s, steps) => {
          let now = 0;
          const windowMs = 1_000;
          const ledger = new MemoryLedger(
            s.limit,
            windowMs,
            () => now,
            fairShare(s.limit, s.reserve),
          );
          const run = await play([ledger], steps, {
            windowMs,
            backgroundShare: s.backgroundShare,
            now: () => now,
            advance: async (ms) => {
              now += ms;
            },
          });
          checkInvariants(run);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses only when the budget is really taken, paused, or the share spent', async () => {
    await fc.assert(
      fc.asyncProperty(
        shape,
        fc.array(step(1_500, 3_000, 1_000), { maxLength: 60 }),
        async (s, steps) => {
          let now = 0;
          let pausedUntil = 0;
          const windowMs = 1_000;
          const share = fairShare(s.limit, s.reserve);
          const ledger = new MemoryLedger(s.limit, windowMs, () => now, share);
          const calls: Call[] = [];
          const inFlight: Array<{ slot: Slot; call: Call }> = [];
          for (const st of steps) {
            if (st.kind === 'acquire') {
              const requester = REQUESTERS[st.who] ?? 'U1';
              const result = ledger.tryAcquire(requester);
              const live = calls.filter(
                (call) => call.doneAt === undefined || call.doneAt + windowMs > now,
              );
              if (result.granted) {
                const call = { requester, sentAt: now, doneAt: undefined };
                calls.push(call);
                inFlight.push({ slot: result.slot, call });
              } else {
                // A refusal is justified by the model: paused, full, this requester's share,
                // or the graded reserve it must leave to others (as many as it holds, up to
                // the reserve).
                const own = live.filter((call) => call.requester === requester).length;
                const keep = Math.min(own, s.limit - share);
                expect(now < pausedUntil || live.length + keep >= s.limit || own >= share).toBe(
                  true,
                );
              }
            } else if (st.kind === 'complete' || st.kind === 'cancel') {
              if (inFlight.length === 0) continue;
              const [held] = inFlight.splice(st.pick % inFlight.length, 1);
              if (!held) continue;
              if (st.kind === 'complete') {
                held.call.doneAt = now;
                ledger.complete(held.slot);
              } else {
                calls.splice(calls.indexOf(held.call), 1);
                ledger.cancel(held.slot);
              }
            } else if (st.kind === 'block') {
              pausedUntil = Math.max(pausedUntil, now + st.ms);
              ledger.block(st.ms);
            } else {
              now += st.ms;
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the fair queue, over random arrivals', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('serves every waiting requester before anyone who came after it gets a second turn', async () => {
    vi.useFakeTimers({ now: 0 });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('arrive' as const), who: fc.nat(7) }),
            fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 700 }) }),
          ),
          { maxLength: 40 },
        ),
        async (limit, events) => {
          const windowMs = 1_000;
          const ledger = new MemoryLedger(limit, windowMs, Date.now, limit);
          const queue = new BudgetQueue({
            endpoint: 'getItem',
            ledger,
            maxWaitMs: 600_000,
            metrics: createMetrics(),
            now: Date.now,
          });
          /** Grants in order, by requester. */
          const grants: string[] = [];
          const waits: Array<{ requester: string; grantsBefore: number; othersWaiting: number }> =
            [];
          const waiting = new Map<string, number>();
          const settled: Array<Promise<void>> = [];
          for (const event of events) {
            if (event.kind === 'tick') {
              await vi.advanceTimersByTimeAsync(event.ms);
              continue;
            }
            const requester = `U${event.who}`;
            // One call at a time per person, as someone waiting for a card.
            if ((waiting.get(requester) ?? 0) > 0) continue;
            waiting.set(requester, 1);
            const entry = {
              requester,
              grantsBefore: grants.length,
              othersWaiting: [...waiting.entries()].filter(
                ([other, count]) => other !== requester && count > 0,
              ).length,
            };
            waits.push(entry);
            settled.push(
              queue.acquire(requester).then((slot) => {
                // Granted before anyone else's: how many others went while it waited.
                const others = grants.length - entry.grantsBefore;
                grants.push(requester);
                waiting.set(requester, 0);
                // Served within one round of those already waiting when it arrived.
                expect(others).toBeLessThanOrEqual(entry.othersWaiting);
                ledger.complete(slot);
              }),
            );
            await vi.advanceTimersByTimeAsync(0);
          }
          await vi.advanceTimersByTimeAsync(60_000);
          await Promise.all(settled);
          expect(grants).toHaveLength(waits.length);
          queue.close();
        },
      ),
      { numRuns: 100 },
    );
  });
});

const REDIS_URL = process.env.REDIS_URL;
const sharedAvailable = await sharedRedisOrSkip('the Redis ledger properties');

describe.skipIf(!sharedAvailable)(
  'the Redis ledger, two replicas, over random interleavings',
  () => {
    const prefix = `test:${randomUUID()}:`;
    const clients: Redis[] = [];
    const healths: RedisHealth[] = [];
    const replica = (key: string, limit: number, share: number, windowMs: number) => {
      const redis = new Redis(REDIS_URL ?? '');
      clients.push(redis);
      const health = new RedisHealth(redis, silentLogger);
      healths.push(health);
      return new RedisLedger({
        redis,
        health,
        key,
        limit,
        share,
        windowMs,
        flightBoundMs: 10_000,
        now: Date.now,
      });
    };

    afterAll(async () => {
      const cleaner = new Redis(REDIS_URL ?? '');
      const keys = await cleaner.keys(`${prefix}*`);
      if (keys.length > 0) await cleaner.del(...keys);
      cleaner.disconnect();
      for (const health of healths) health.dispose();
      for (const redis of clients) redis.disconnect();
    });

    it('never lets the ERP count more than the limit, or a requester more than its share', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          shape,
          fc.array(step(80, 300, 200), { maxLength: 25 }),
          async (s, steps) => {
            run += 1;
            // A short real window: Redis keeps its own time, which no fake clock can move.
            const windowMs = 200;
            const key = `${prefix}run${run}`;
            const share = fairShare(s.limit, s.reserve);
            const replicas = [
              replica(key, s.limit, share, windowMs),
              replica(key, s.limit, share, windowMs),
            ];
            await Promise.all(clients.slice(-2).map((c) => c.ping()));
            const result = await play(replicas, steps, {
              windowMs,
              backgroundShare: s.backgroundShare,
              now: Date.now,
              advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
            });
            checkInvariants(result);
            for (const redis of clients.splice(-2)) redis.disconnect();
          },
        ),
        { numRuns: 12 },
      );
    }, 60_000);
  },
);
