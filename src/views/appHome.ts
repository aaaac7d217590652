/**
 * App Home as the person's workspace (`app_home_opened` → views.publish): what they do first
 * ("Search stock", "Find contact"), their recent lookups as buttons that open the card, their
 * watches, and the ERP's state, budget and the index's coverage in one muted line written
 * for a person (no endpoint names, no per-minute counters, no "crawl").
 */
import type { ActionsBlock, Button, HomeView, KnownBlock } from '@slack/types';
import { context, divider, header, LIMITS, plain, section, truncatePlain } from './blocks.js';
import type { CatalogueSummary } from './catalogue.js';
import { FIND_CONTACT } from './findContactModal.js';
import { codeSpan, formatQty, oneLineAtWord, plural, slackTime, slackTimeAgo } from './format.js';
import { SEARCH } from './searchModal.js';
import { homeWatchBlocks } from './watchList.js';
import type { WatchSummary } from './watchWords.js';

/** A recent lookup's button: its value is the item code (≤ 100 characters, checked on click). */
export const HOME_RECENT_ACTION = 'home_recent_view';

/** One of the person's watches, as the watch views draw it (src/views/watchList.ts). */
export type HomeWatchRow = WatchSummary;

/**
 * One of the person's recent lookups: its code, and what the lookup cache holds of it (Home
 * is drawn without an ERP call, so an item the cache no longer holds shows its code only).
 */
export interface HomeRecentRow {
  code: string;
  cached?: { description: string; available: number; fetchedAt: Date };
}

export interface AppHomeModel {
  sandbox: boolean;
  breaker: 'closed' | 'open' | 'half-open';
  /** Lookups (getItem, getContact) left this minute, and the limit. */
  budgets: ReadonlyArray<{ endpoint: string; left: number; limit: number }>;
  catalogue: CatalogueSummary;
  recent: readonly HomeRecentRow[];
  /** Undefined when the app has no watches: the section is left out. */
  watches?: readonly HomeWatchRow[];
  /** Find contact is offered only to those /contact lets in. */
  contactAllowed: boolean;
  now: Date;
}

const MAX_RECENT = 8;

function button(actionId: string, text: string, extra: Partial<Button> = {}): Button {
  return { type: 'button', action_id: actionId, text: plain(text, LIMITS.buttonText), ...extra };
}

export function appHomeView(model: AppHomeModel): HomeView {
  const blocks: KnownBlock[] = [header('ERP lookups')];
  if (model.sandbox) {
    blocks.push(
      context(
        ':test_tube: *Sandbox data*: answers come from the built-in sandbox ERP, not your ERP.',
      ),
    );
  }
  const doing: Button[] = [button(SEARCH.homeButton, 'Search stock', { style: 'primary' })];
  if (model.contactAllowed) doing.push(button(FIND_CONTACT.homeButton, 'Find contact'));
  blocks.push({ type: 'actions', elements: doing });
  blocks.push(context(statusLine(model)));
  blocks.push(divider(), ...recentBlocks(model.recent));
  if (model.watches) blocks.push(divider(), ...homeWatchBlocks(model.watches, model.now));
  blocks.push(
    context(
      '`/stock help` and `/contact help` show everything you can type. Answers are private until you share them.',
    ),
  );
  return { type: 'home', blocks: blocks.slice(0, 100) };
}

function recentBlocks(recent: readonly HomeRecentRow[]): KnownBlock[] {
  const rows = recent
    .filter((row) => row.code.length > 0 && row.code.length <= 100)
    .slice(0, MAX_RECENT);
  if (rows.length === 0) {
    return [
      section(
        '*Your recent lookups*\nNone yet: look an item up with `/stock` or *Search stock*, and it appears here.',
      ),
    ];
  }
  const row: ActionsBlock = {
    type: 'actions',
    block_id: 'home_recent',
    elements: rows.map(({ code }, index) =>
      button(`${HOME_RECENT_ACTION}:${index}`, truncatePlain(code, LIMITS.buttonText), {
        value: code,
      }),
    ),
  };
  const lines = rows.map(recentLine);
  return [section(['*Your recent lookups*', ...lines].join('\n')), row];
}

/** "`WIDGET-9` Widget 9mm · *42* available (3 minutes ago)"; the code alone when not cached. */
function recentLine({ code, cached }: HomeRecentRow): string {
  if (cached === undefined) return codeSpan(code);
  const description = oneLineAtWord(cached.description, 40);
  const available =
    cached.available < 0
      ? `:warning: *${formatQty(cached.available)}* over-allocated`
      : `*${formatQty(cached.available)}* available`;
  const when = slackTime(cached.fetchedAt, '{ago}');
  return `${codeSpan(code)}${description ? ` ${description}` : ''} · ${available} (${when})`;
}

/** "ERP connected · lookups answer at once · search knows all 2,000 items (updated …)". */
export function statusLine(model: Pick<AppHomeModel, 'breaker' | 'budgets' | 'catalogue'>): string {
  const parts: string[] = [ERP_WORDS[model.breaker]];
  const lookups = model.budgets.filter(
    (b) => b.endpoint === 'getItem' || b.endpoint === 'getContact',
  );
  if (lookups.length > 0 && model.breaker !== 'open') parts.push(budgetWords(lookups));
  parts.push(indexWords(model.catalogue));
  return parts.join('  ·  ');
}

const ERP_WORDS = {
  closed: ':large_green_circle: ERP connected',
  'half-open': ':large_yellow_circle: ERP recovering, trying again',
  open: ':red_circle: ERP not answering: recent answers still shown, new ones resume shortly',
} as const;

function budgetWords(lookups: ReadonlyArray<{ left: number; limit: number }>): string {
  const share = Math.min(...lookups.map((b) => (b.limit > 0 ? b.left / b.limit : 1)));
  if (share <= 0) return 'busy: new lookups wait up to a minute';
  if (share < 0.2) return 'busy: new lookups may wait a few seconds';
  return 'lookups answer at once';
}

function indexWords(summary: CatalogueSummary): string {
  if (summary.items === 0) return 'search learns items as people look them up';
  if (summary.complete && summary.lastFullPassAt) {
    return `search knows all ${plural(summary.items, 'item')} (checked ${slackTimeAgo(summary.lastFullPassAt)})`;
  }
  const share =
    summary.coverage === undefined ? '' : ` (${Math.floor(summary.coverage * 100)}% of the ERP)`;
  return `search knows ${plural(summary.items, 'item')} so far${share}`;
}

/** What a person the access lists refuse sees on App Home: short, and no list details. */
export function appHomeRefusedView(): HomeView {
  return {
    type: 'home',
    blocks: [
      header('ERP lookups'),
      section(
        'This app’s stock and contact lookups are not open to you. If you need them, ask whoever runs Slack in your workspace.',
      ),
    ],
  };
}
