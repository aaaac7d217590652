/**
 * A watch rig on a real store: the real tracker, notifier and checker, a programmable ERP
 * (stock set per item, or gone), a poster that records and can refuse, a free budget and a
 * clock the test moves.
 */
import { NotFoundError } from '../../src/erp/errors.js';
import type { Item } from '../../src/erp/schemas.js';
import type { BackgroundBudget } from '../../src/lookup/background.js';
import type { SlackMessage } from '../../src/views/message.js';
import { WatchChecker } from '../../src/watches/checker.js';
import type { WatchStore } from '../../src/watches/database.js';
import { DigestRepository, WatchDigests } from '../../src/watches/digests.js';
import { HistoryRepository } from '../../src/watches/history.js';
import { type CheckerLease, soleProcessLease } from '../../src/watches/lease.js';
import { WatchNotifier } from '../../src/watches/notifier.js';
import { PostError, type WatchPoster } from '../../src/watches/poster.js';
import { WatchRepository } from '../../src/watches/repository.js';
import { type WatchLimits, WatchService } from '../../src/watches/service.js';
import { WatchTracker } from '../../src/watches/tracker.js';
import { makeBranch, makeItem } from '../helpers/builders.js';
import { collectingLogger } from '../helpers/logSink.js';
import { T0 } from './stores.js';

export interface Posted {
  kind: 'post' | 'update' | 'delete';
  channel: string;
  ts: string;
  message: SlackMessage;
  /** A reply: the thread's root. */
  threadTs?: string;
}

export class FakeSlack implements WatchPoster {
  readonly sent: Posted[] = [];
  /** Slack error codes to answer with, per channel (consumed one a call when `once`). */
  refuse = new Map<string, { error: string; once: boolean }>();
  private seq = 0;

  async post(channel: string, message: SlackMessage, threadTs?: string): Promise<{ ts: string }> {
    this.check(channel);
    this.seq += 1;
    const ts = `1700000000.${String(this.seq).padStart(6, '0')}`;
    this.sent.push({ kind: 'post', channel, ts, message, ...(threadTs ? { threadTs } : {}) });
    return { ts };
  }

  async update(channel: string, ts: string, message: SlackMessage): Promise<void> {
    this.check(channel);
    this.sent.push({ kind: 'update', channel, ts, message });
  }

  async delete(channel: string, ts: string): Promise<void> {
    this.check(channel);
    this.sent.push({ kind: 'delete', channel, ts, message: { text: '', blocks: [] } });
  }

  posts(channel?: string): Posted[] {
    return this.sent.filter(
      (s) => s.kind === 'post' && (channel === undefined || s.channel === channel),
    );
  }

  /** Top-level posts in a channel (not replies). */
  roots(channel: string): Posted[] {
    return this.posts(channel).filter((s) => s.threadTs === undefined);
  }

  /** Replies in one thread. */
  replies(threadTs: string): Posted[] {
    return this.posts().filter((s) => s.threadTs === threadTs);
  }

  updates(): Posted[] {
    return this.sent.filter((s) => s.kind === 'update');
  }

  private check(channel: string): void {
    const refusal = this.refuse.get(channel);
    if (refusal === undefined) return;
    if (refusal.once) this.refuse.delete(channel);
    throw new PostError(refusal.error);
  }
}

export class FakeErp {
  readonly stock = new Map<string, number>();
  readonly gone = new Set<string>();
  calls = 0;

  item(code: string): Item {
    const available = this.stock.get(code) ?? 0;
    return makeItem({
      code,
      id: 7,
      branches: [
        makeBranch({ id: 1, name: 'Perth', soh: available, allocated: 0, onorder: 4 }),
        makeBranch({ id: 2, name: 'Sydney', soh: 0, allocated: 0, onorder: 0 }),
      ],
    });
  }

  async getItem(ref: { code: string } | { id: number }): Promise<Item> {
    this.calls += 1;
    const code = 'code' in ref ? ref.code : String(ref.id);
    if (this.gone.has(code))
      throw new NotFoundError('gone', { endpoint: 'getItem', statusCode: 404 });
    return this.item(code);
  }
}

export const freeBudget: BackgroundBudget = {
  usersWaiting: () => false,
  waitMs: () => 0,
  run: (call) => call(new AbortController().signal),
};

export const LIMITS: WatchLimits = {
  share: 0.1,
  getItemPerMinute: 60,
  minIntervalSeconds: 60,
  maxIntervalMinutes: 60,
  maxPerChannel: 50,
  maxPerUser: 20,
};

export interface Rig {
  clock: { now: number };
  repo: WatchRepository;
  slack: FakeSlack;
  erp: FakeErp;
  tracker: WatchTracker;
  notifier: WatchNotifier;
  checker: WatchChecker;
  service: WatchService;
  history: HistoryRepository;
  digests: WatchDigests;
  /** Moves the clock past the check interval and runs one tick. */
  nextRound(minutes?: number): Promise<void>;
}

export function makeRig(
  store: WatchStore,
  shared: { clock?: { now: number }; slack?: FakeSlack; erp?: FakeErp; lease?: CheckerLease } = {},
): Rig {
  const clock = shared.clock ?? { now: T0 };
  const now = () => clock.now;
  const slack = shared.slack ?? new FakeSlack();
  const erp = shared.erp ?? new FakeErp();
  const repo = new WatchRepository(store.db);
  const repoFn = async () => repo;
  const { logger } = collectingLogger('warn', 'watches');
  const history = new HistoryRepository(store.db);
  const historyFn = async () => history;
  const tracker = new WatchTracker(repoFn, historyFn);
  const notifier = new WatchNotifier({
    repo: repoFn,
    history: historyFn,
    poster: slack,
    logger,
    now,
  });
  const digestRepo = new DigestRepository(store.db);
  const digests = new WatchDigests({
    digests: async () => digestRepo,
    watchesOf: (channelId) => repo.activeWhere({ channelId }),
    coverOf: (watch) => notifier.coverOf(watch),
    poster: slack,
    logger,
    now,
  });
  const checker = new WatchChecker({
    repo: repoFn,
    tracker,
    notifier,
    erp,
    budget: freeBudget,
    lease: shared.lease ?? soleProcessLease,
    limits: LIMITS,
    logger,
    afterRound: async () => {
      await digests.send();
    },
    now,
  });
  const service = new WatchService({
    repo: repoFn,
    fetchItem: (code) => erp.getItem({ code }),
    poster: slack,
    limits: LIMITS,
    now,
    story: notifier,
  });
  return {
    clock,
    repo,
    slack,
    erp,
    tracker,
    notifier,
    checker,
    service,
    history,
    digests,
    async nextRound(minutes = 2) {
      clock.now += minutes * 60_000;
      await checker.tick();
    },
  };
}
