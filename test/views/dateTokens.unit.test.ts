/**
 * Every time a person reads in a message's blocks is a Slack date token, so each reader sees
 * it in their own time zone and relative words are worked out when it is read: fetched,
 * checked, crossed, snoozed until, the next digest, the index's age. An absolute UTC time
 * appears only as a token's fallback (and in the plain `text` fallback).
 */
import { describe, expect, it } from 'vitest';
import { ServerError } from '../../src/erp/errors.js';
import { appHomeView } from '../../src/views/appHome.js';
import { categoriesList } from '../../src/views/catalogue.js';
import { contactCard } from '../../src/views/contactCard.js';
import { errorMessage } from '../../src/views/feedback.js';
import { itemCard } from '../../src/views/itemCard.js';
import { contactSearchList, itemSearchList } from '../../src/views/searchLists.js';
import {
  watchAlert,
  watchDigest,
  watchPressNote,
  watchTurnReply,
} from '../../src/views/watchAlert.js';
import { homeWatchBlocks, watchList } from '../../src/views/watchList.js';
import { digestAnswer, watchSnoozed } from '../../src/views/watchNotices.js';
import {
  makeContact,
  makeContactRow,
  makeFreshness,
  makeItem,
  makeItemRow,
  makePage,
  makeWatchSummary,
  TEST_NOW,
} from '../helpers/builders.js';

const at = new Date('2026-11-27T10:42:00Z');
const watch = makeWatchSummary({
  state: 'past',
  lastAvailable: 12,
  checkedAt: at,
  snoozedUntil: new Date(TEST_NOW.getTime() + 86_400_000),
});
const alert = {
  watchId: watch.id,
  code: 'WIDGET-9',
  itemId: 1001,
  description: 'Blue widget',
  branchName: 'Perth',
  direction: 'below' as const,
  threshold: 20,
  now: 12,
  onOrder: 0,
  checkedAt: at,
  standing: 'past' as const,
  crossing: { before: 30, at },
  cover: undefined,
  mentions: [],
  asOf: new Date(at.getTime() + 120_000),
};
const freshness = makeFreshness({ fetchedAt: at });
const stale = makeFreshness({ fetchedAt: at, stale: true, fromCache: true });
const summary = { items: 2000, complete: true, coverage: 1, lastFullPassAt: at, crawling: false };

const views: Array<[string, { blocks: unknown }]> = [
  ['item card', itemCard({ item: makeItem(), freshness, now: TEST_NOW })],
  ['stale item card', itemCard({ item: makeItem(), freshness: stale, now: TEST_NOW })],
  ['shared item card', itemCard({ item: makeItem(), freshness, now: TEST_NOW, shared: true })],
  [
    'contact card',
    contactCard({ contact: makeContact(), freshness, now: TEST_NOW, canReveal: false }),
  ],
  [
    'item list',
    itemSearchList({
      query: { words: ['w'] },
      page: makePage([makeItemRow()]),
      freshness,
      now: TEST_NOW,
    }),
  ],
  [
    'contact list',
    contactSearchList({
      query: { words: ['a'] },
      page: makePage([makeContactRow()]),
      freshness,
      now: TEST_NOW,
    }),
  ],
  [
    'error with the last data',
    errorMessage(new ServerError('x', { endpoint: 'getItem', statusCode: 503 }), {
      stale: { fetchedAt: at },
    }),
  ],
  ['watch alert', watchAlert(alert)],
  ['watch turn', watchTurnReply({ ...alert, before: 30, standing: 'past', mentions: [] })],
  ['snooze note', watchPressNote('U0123ABC', { kind: 'snooze', until: at }, TEST_NOW)],
  ['snoozed reply', watchSnoozed(watch, at, TEST_NOW)],
  ['digest', watchDigest({ watches: [watch], checkedAt: at })],
  [
    'digest on',
    digestAnswer({
      kind: 'on',
      minuteOfDay: 480,
      zone: 'Australia/Perth',
      nextAt: at,
      now: TEST_NOW,
    }),
  ],
  [
    'watch list',
    watchList({ watches: [watch], intervalSeconds: 60, scope: 'channel', now: TEST_NOW }),
  ],
  ['home watches', { blocks: homeWatchBlocks([watch], TEST_NOW) }],
  [
    'categories',
    categoriesList({ categories: [{ name: 'W', id: 1, items: 3 }], summary, now: TEST_NOW }),
  ],
  [
    'App Home',
    appHomeView({
      sandbox: false,
      breaker: 'closed',
      budgets: [],
      catalogue: summary,
      recent: [{ code: 'WIDGET-9', cached: { description: 'W', available: 1, fetchedAt: at } }],
      watches: [watch],
      contactAllowed: true,
      now: TEST_NOW,
    }),
  ],
];

/** The blocks' text with every date token taken out. */
const withoutTokens = (blocks: unknown) =>
  JSON.stringify(blocks).replace(/<!date\^\d+\^[^|>]+\|[^>]+>/g, '');

describe('times in blocks are date tokens', () => {
  it.each(views)('%s: a token for each time, no absolute time outside one', (_name, message) => {
    const json = JSON.stringify(message.blocks);
    expect(json).toMatch(/<!date\^\d+\^[^|>]+\|[^>]+>/);
    const rest = withoutTokens(message.blocks);
    expect(rest).not.toMatch(/\bUTC\b/);
    expect(rest).not.toMatch(/\b\d{1,2}:\d{2}\b(?! [A-Z][a-z]+\/)/);
  });
});

/**
 * The plain `text` is what notifications and screen readers read: Slack renders no date
 * token there, and a fixed zone is wrong for most readers, so any time in it is relative.
 */
describe('times in fallback texts are relative', () => {
  it.each(views.filter(([, m]) => 'text' in m))('%s: no absolute time, no token', (_n, message) => {
    const { text } = message as unknown as { text: string };
    expect(text).not.toMatch(/<!date/);
    expect(text).not.toMatch(/\bUTC\b/);
    // A time of day with the zone a person named (the digest's setting) is their words.
    expect(text).not.toMatch(/\b\d{1,2}:\d{2}\b(?! [A-Z][a-z]+\/)/);
    expect(text).not.toMatch(/\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/);
  });
});

describe('relativeTime', () => {
  it('says a past or future time in plain relative words', async () => {
    const { relativeTime } = await import('../../src/views/format.js');
    const now = new Date('2026-03-02T10:45:00Z');
    const at = (ms: number) => relativeTime(new Date(now.getTime() + ms), now);
    expect([at(-20_000), at(-5 * 60_000), at(3 * 3_600_000), at(-3 * 86_400_000)]).toEqual([
      'just now',
      '5 min ago',
      'in 3 h',
      '3 days ago',
    ]);
  });
});
