/**
 * Words for the catalogue index (issue 16): `/stock categories`, the note on a search
 * answered from the index, and typeahead options. App Home and the search modal are in
 * home.ts and searchModal.ts.
 */
import type { KnownBlock, PlainTextOption } from '@slack/types';
import { context, divider, header, packLines, section } from './blocks.js';
import { plural, slackTimeAgo } from './format.js';
import { LIMITS, truncatePlain } from './limits.js';
import type { SlackMessage } from './message.js';
import { escapeMrkdwn, stripBidiControls } from './mrkdwn.js';

/** Select-menu option limits (Block Kit option object): text 75, value 150 characters. */
const OPTION_TEXT = 75;
const OPTION_VALUE = 150;

export interface CategoryLine {
  name: string;
  id: number | undefined;
  items: number;
}

export interface CatalogueSummary {
  items: number;
  complete: boolean;
  coverage: number | undefined;
  lastFullPassAt: Date | undefined;
  crawling: boolean;
}

/** What is shown before the app has a catalogue index at all. */
export const NO_CATALOGUE: CatalogueSummary = {
  items: 0,
  complete: false,
  coverage: undefined,
  lastFullPassAt: undefined,
  crawling: false,
};

/** "2,000 items, complete as of 10:04 (3 min ago)" or "412 items so far, crawl running". */
export function catalogueLine(summary: CatalogueSummary): string {
  const items = plural(summary.items, 'item');
  const coverage =
    summary.coverage === undefined ? '' : `, ${Math.floor(summary.coverage * 100)}% of the ERP`;
  if (summary.complete && summary.lastFullPassAt) {
    const at = summary.lastFullPassAt;
    return `${items}${coverage}, complete as of ${slackTimeAgo(at)}`;
  }
  const state = summary.crawling ? 'crawl running' : 'filling from lookups';
  return `${items} so far${coverage}, ${state}`;
}

export function categoriesList(model: {
  categories: readonly CategoryLine[];
  summary: CatalogueSummary;
  now: Date;
}): SlackMessage {
  const { categories, summary } = model;
  const blocks: KnownBlock[] = [header('Item categories')];
  if (categories.length === 0) {
    blocks.push(
      section(
        'No categories known yet: the catalogue index is still empty. Try again in a few minutes, or search with `/stock words` meanwhile.',
      ),
    );
  } else {
    const lines = categories.map((category) => {
      const id = category.id === undefined ? 'id not learned yet' : `\`category:${category.id}\``;
      return `*${escapeMrkdwn(category.name)}*  ${id}  ·  ${plural(category.items, 'item')}`;
    });
    const packed = packLines(lines, {
      maxChars: LIMITS.totalText - 1_000,
      maxSections: 40,
      more: (left) => `…and ${plural(left.length, 'more category', 'more categories')}.`,
    });
    blocks.push(...packed.sections);
    blocks.push(section('Use an id as a filter, with words: `/stock blue widget category:2`.'));
  }
  blocks.push(divider(), context(`Catalogue index: ${catalogueLine(summary)}.`));
  const text = categories
    .slice(0, 30)
    .map((c) => `${c.name}${c.id === undefined ? '' : ` (category:${c.id})`}: ${c.items}`)
    .join('; ');
  return {
    text: categories.length === 0 ? 'No categories known yet.' : `Item categories: ${text}`,
    blocks,
  };
}

/** The note on a `/stock words` list answered from the index: how old its figures are. */
export function indexedSearchNotice(oldest: Date): string {
  return `From the app’s catalogue index; stock figures as of ${slackTimeAgo(oldest)}. *View* fetches the item fresh.`;
}

/** One typeahead option: "WID-0009 · Widget 9mm · 12 available". Plain text, ≤ 75 chars. */
export function itemOption(item: {
  code: string;
  description: string;
  available: number;
}): PlainTextOption {
  const text = `${item.code} · ${item.description} · ${formatAvailable(item.available)}`;
  return {
    text: {
      type: 'plain_text',
      text: truncatePlain(stripBidiControls(text), OPTION_TEXT),
      emoji: false,
    },
    value: truncatePlain(item.code, OPTION_VALUE),
  };
}

function formatAvailable(available: number): string {
  return `${available.toLocaleString('en-US', { maximumFractionDigits: 2 })} available`;
}

/** A category filter option: "Fasteners (312)". */
export function categoryOption(category: CategoryLine & { id: number }): PlainTextOption {
  return {
    text: {
      type: 'plain_text',
      text: truncatePlain(`${category.name} (${category.items})`, OPTION_TEXT),
      emoji: false,
    },
    value: String(category.id),
  };
}
