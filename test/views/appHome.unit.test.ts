import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import {
  type AppHomeModel,
  appHomeRefusedView,
  appHomeView,
  HOME_RECENT_ACTION,
} from '../../src/views/appHome.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import type { WatchSummary } from '../../src/views/watchWords.js';
import { makeWatchSummary } from '../helpers/builders.js';

const now = new Date('2026-11-23T10:00:00Z');
function homeWatch(overrides: Partial<WatchSummary>): WatchSummary {
  return makeWatchSummary({
    channelId: 'C0SALES',
    code: 'WID-0009',
    itemId: 9,
    branchName: undefined,
    ...overrides,
  });
}

const base: AppHomeModel = {
  sandbox: false,
  breaker: 'closed',
  budgets: [
    { endpoint: 'getItem', left: 57, limit: 60 },
    { endpoint: 'getContact', left: 60, limit: 60 },
    { endpoint: 'searchItems', left: 3, limit: 20 },
  ],
  catalogue: {
    items: 2000,
    complete: false,
    coverage: 0.4,
    lastFullPassAt: undefined,
    crawling: true,
  },
  recent: [{ code: 'WID-0009' }, { code: 'FST-0100' }],
  contactAllowed: true,
  now,
};

const json = (model: Partial<AppHomeModel> = {}) =>
  JSON.stringify(appHomeView({ ...base, ...model }).blocks);

function elements(model: Partial<AppHomeModel> = {}) {
  const blocks = appHomeView({ ...base, ...model }).blocks as KnownBlock[];
  return blocks.flatMap((b) => (b.type === 'actions' ? b.elements : [])) as Array<{
    action_id?: string;
    value?: string;
    text?: { text: string };
  }>;
}

describe('appHomeView', () => {
  it('leads with Search stock and Find contact', () => {
    const [first, second] = elements();
    expect(first?.action_id).toBe('stock_search_open');
    expect(second?.action_id).toBe('contact_find_open');
    expect(elements({ contactAllowed: false }).map((e) => e.action_id)).not.toContain(
      'contact_find_open',
    );
  });

  it('shows recent lookups as buttons carrying the code', () => {
    const recent = elements().filter((e) => e.action_id?.startsWith(HOME_RECENT_ACTION));
    expect(recent.map((e) => [e.text?.text, e.value])).toEqual([
      ['WID-0009', 'WID-0009'],
      ['FST-0100', 'FST-0100'],
    ]);
    // Unique action ids, as Slack requires within one block.
    expect(new Set(recent.map((e) => e.action_id)).size).toBe(2);
    expect(json({ recent: [] })).toContain('None yet');
  });

  it('shows a recent item’s available quantity and its age when the cache holds it', () => {
    const text = json({
      recent: [
        {
          code: 'WID-0009',
          cached: { description: 'Blue widget 9mm', available: 42, fetchedAt: now },
        },
        { code: 'OVER-1', cached: { description: 'Over', available: -3, fetchedAt: now } },
        { code: 'FST-0100' },
      ],
    });
    const unix = Math.floor(now.getTime() / 1000);
    expect(text).toContain(`\`WID-0009\` Blue widget 9mm · *42* available (<!date^${unix}^{ago}|`);
    expect(text).toContain('*-3* over-allocated');
    // Not in the cache: the code alone, never a figure.
    expect(text).toMatch(/\\n`FST-0100`"/);
  });

  it('says the status in one muted line, in a person’s words', () => {
    const view = appHomeView(base);
    const contexts = view.blocks.filter((b) => JSON.stringify(b).includes('ERP connected'));
    expect(contexts).toHaveLength(1);
    expect(contexts[0]?.type).toBe('context');
    const text = json();
    for (const jargon of ['getItem', 'searchItems', 'left this minute', 'crawl', '57 of 60']) {
      expect(text).not.toContain(jargon);
    }
    expect(text).toContain('lookups answer at once');
    expect(text).toContain('search knows 2,000 items so far (40% of the ERP)');
    const busy = json({ budgets: [{ endpoint: 'getItem', left: 0, limit: 60 }] });
    expect(busy).toContain('busy');
    expect(json({ breaker: 'open' })).toContain('ERP not answering');
  });

  it('leaves the watches out without a provider, lists them with Remove when given', () => {
    expect(json()).not.toContain('Your watches');
    const text = json({
      watches: [
        homeWatch({
          code: 'WID-0009',
          branchName: 'Perth',
          channelId: 'C0SALES',
          state: 'past',
          lastAvailable: 12,
          cover: { days: 4.4, windowDays: 9 },
        }),
        homeWatch({
          code: 'FST-0100',
          direction: 'above',
          threshold: 0,
          channelId: 'C0OPS',
          state: 'off',
          offReason: 'is_archived',
        }),
      ],
    });
    expect(text).toContain('Your watches');
    expect(text).toContain('at Perth: below 20 in <#C0SALES> · 12 available');
    expect(text).toContain('past the threshold now');
    expect(text).toContain("about 4 days of cover at the last 9 days' rate");
    expect(text).toContain('"watch_remove:');
    expect(text).toContain('Remove the watch on WID-0009 at Perth');
    expect(text).toContain('off: the channel was archived');
    expect(json({ watches: [] })).toContain('/stock watch [item code] below [number]');
  });

  it('stays inside Block Kit limits with hostile and long data', () => {
    const long = 'X'.repeat(300);
    const view = appHomeView({
      ...base,
      sandbox: true,
      recent: Array.from({ length: 20 }, (_, i) => ({
        code: `${long}${i}`,
        cached: { description: `<!channel> ${long}`, available: -1e12, fetchedAt: now },
      })),
      watches: Array.from({ length: 40 }, (_, i) =>
        homeWatch({
          id: `1b4e28ba-2fa1-41d2-883f-0016d3cc${String(i).padStart(4, '0')}`,
          code: `<!channel>${i}`,
          branchName: long,
          threshold: i,
          channelId: 'not a channel',
          state: 'off',
          offReason: long,
        }),
      ),
    });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    // Mrkdwn is where Slack would read a mention; plain text (labels, dialogs) shows it as typed.
    const mrkdwn = JSON.stringify(view.blocks).match(/"type":"mrkdwn","text":"(?:[^"\\]|\\.)*"/g);
    expect(mrkdwn?.join('\n')).not.toContain('<!channel>');
    const problems = checkMessageLimits({
      text: 'home',
      blocks: view.blocks.slice(0, 50) as KnownBlock[],
    });
    expect(problems).toEqual([]);
  });
});

describe('appHomeRefusedView', () => {
  it('is short and offers nothing to press', () => {
    const view = appHomeRefusedView();
    expect(view.blocks.length).toBeLessThanOrEqual(3);
    expect(JSON.stringify(view.blocks)).toContain('not open to you');
    expect(view.blocks.some((b) => b.type === 'actions')).toBe(false);
  });
});
