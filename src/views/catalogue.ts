/**
 * Words for the catalogue index: `/stock categories`, the note on a search
 * answered from the index, and typeahead options. App Home and the search modal are in
 * home.ts and searchModal.ts.
 */
import type { KnownBlock, PlainTextOption } from '@slack/types';
import {
  context,
  divider,
  header,
  LIMITS,
  packLines,
  REFERENCE_HEADER,
  section,
  stripBidiControls,
  truncatePlain,
} from './blocks.js';
import { escapeMrkdwn, formatQty, plural, slackTimeAgo } from './format.js';
import type { SlackMessage } from './message.js';

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
function catalogueLine(summary: CatalogueSummary): string {
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
  const blocks: KnownBlock[] = [
    header('Item categories', categories.length === 0 ? undefined : REFERENCE_HEADER),
  ];
  if (categories.length === 0) {
    blocks.push(
      section(
        'No categories known yet: the catalogue index is still empty. Try again in a few minutes, or search with `/stock words` meanwhile.',
      ),
    );
  } else {
    const lines = categories.map((category) => {
      const id = category.id === undefined ? 'id not learned yet' : `\`category:${category.id}\``;
      return `*${escapeMrkdwn(category.name)}*  ${id}${itemCount(category.items, summary)}`;
    });
    const packed = packLines(lines, {
      maxChars: LIMITS.totalText - 1_000,
      maxSections: 40,
      more: (left) => `…and ${plural(left.length, 'more category', 'more categories')}.`,
    });
    blocks.push(...packed.sections);
    blocks.push(section('Use an id as a filter, with words: `/stock blue widget category:2`.'));
    if (!summary.complete) blocks.push(context(COUNTING));
  }
  blocks.push(divider(), context(`Catalogue index: ${catalogueLine(summary)}.`));
  const text = categories
    .slice(0, 30)
    .map(
      (c) =>
        `${c.name}${c.id === undefined ? '' : ` (category:${c.id})`}${plainCount(c.items, summary)}`,
    )
    .join('; ');
  return {
    text: categories.length === 0 ? 'No categories known yet.' : `Item categories: ${text}`,
    blocks,
  };
}

interface SupplierLine {
  name: string;
  id: number | undefined;
  items: number;
}

/**
 * "12 items" once the index holds the whole catalogue; while it fills, "12 so far" (a count
 * of what it has seen, never said as the category's size); nothing when it has seen none
 * of that one's items yet (seeded names).
 */
function itemCount(items: number, summary: Pick<CatalogueSummary, 'complete'>): string {
  if (items <= 0) return '';
  return summary.complete ? `  ·  ${plural(items, 'item')}` : `  ·  ${formatQty(items)} so far`;
}

function plainCount(items: number, summary: Pick<CatalogueSummary, 'complete'>): string {
  if (summary.complete) return `: ${formatQty(items)}`;
  return items > 0 ? `: ${formatQty(items)} so far` : '';
}

const COUNTING =
  'Item counts are still being counted: the catalogue index is not complete yet, so they only grow.';

/** `/stock suppliers`: the suppliers the index knows, their ids where learned, item counts. */
export function suppliersList(model: {
  suppliers: readonly SupplierLine[];
  summary: CatalogueSummary;
}): SlackMessage {
  const { suppliers, summary } = model;
  const blocks: KnownBlock[] = [
    header('Suppliers', suppliers.length === 0 ? undefined : REFERENCE_HEADER),
  ];
  const withId = suppliers.find((s) => s.id !== undefined);
  if (suppliers.length === 0) {
    blocks.push(
      section(
        'No suppliers known yet: the app learns them from the items people look up and from its catalogue index. Try again in a few minutes.',
      ),
    );
  } else {
    const lines = suppliers.map((supplier) => {
      const id = supplier.id === undefined ? 'id not learned yet' : `\`supplier:${supplier.id}\``;
      return `*${escapeMrkdwn(supplier.name)}*  ${id}${itemCount(supplier.items, summary)}`;
    });
    const packed = packLines(lines, {
      maxChars: LIMITS.totalText - 1_000,
      maxSections: 40,
      more: (left) => `…and ${plural(left.length, 'more supplier')}.`,
    });
    blocks.push(...packed.sections);
    blocks.push(
      section(
        withId
          ? `Filter a search by supplier, by id or by name: \`/stock [words] supplier:${withId.id}\`, or \`supplier:${escapeMrkdwn(firstWord(withId.name))}\`.`
          : 'An id is learned once a search filtered by that supplier (`supplier:[id]`) has been made; names work once their id is known.',
      ),
    );
  }
  blocks.push(divider(), context(`Catalogue index: ${catalogueLine(summary)}.`));
  const text = suppliers
    .slice(0, 30)
    .map((s) => `${s.name}${s.id === undefined ? '' : ` (supplier:${s.id})`}`)
    .join('; ');
  return {
    text: suppliers.length === 0 ? 'No suppliers known yet.' : `Suppliers: ${text}`,
    blocks,
  };
}

function firstWord(name: string): string {
  return name.split(/[^\p{L}\p{N}]+/u).find((w) => w.length >= 3) ?? name;
}

const named = (s: { id: number; name: string }) => `${s.name} (supplier:${s.id})`;

/** `supplier:WORD` that fits no supplier whose id the app knows. */
export function supplierNotFoundText(
  typed: string,
  close: ReadonlyArray<{ id: number; name: string }>,
): string {
  const word = typed.slice(0, 40);
  return close.length > 0
    ? `No supplier I know is called “${word}”, so the search was not run. Did you mean ${close.map(named).join(', ')}?`
    : `No supplier I know is called “${word}”, so the search was not run. /stock suppliers lists the suppliers I know, with their ids.`;
}

/** `supplier:WORD` that fits several suppliers. */
export function supplierAmbiguousText(
  typed: string,
  matches: ReadonlyArray<{ id: number; name: string }>,
): string {
  return `“${typed.slice(0, 40)}” fits several suppliers: ${matches.map(named).join(', ')}. Use the one you mean by its id, e.g. supplier:${matches[0]?.id ?? 1}.`;
}

/** The note on a search filtered by a supplier named in words. */
export function supplierResolvedNotice(name: string, id: number): string {
  // Notices are escaped where they are drawn (withNotices).
  return `Supplier “${name.slice(0, 80)}” is supplier:${id}.`;
}

/**
 * `/stock supplier:3` or `/stock category:2` with no word, while the index cannot answer it
 * (still reading the catalogue, or an id it never learned): the ERP's search needs a word, so
 * what to add, with an example; no call was made.
 */
export function filtersNeedWordText(filters: {
  category?: number;
  supplier?: number;
  indexFilling: boolean;
}): string {
  const typed = [
    filters.category === undefined ? '' : `category:${filters.category}`,
    filters.supplier === undefined ? '' : `supplier:${filters.supplier}`,
  ]
    .filter(Boolean)
    .join(' ');
  const later = filters.indexFilling
    ? ' Alone it works once the app has read the whole catalogue (a few minutes after start).'
    : '';
  return `The ERP searches by words: add one to ${typed}, e.g. /stock bolt ${typed}.${later}`;
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

/**
 * A category filter option: "Fasteners (312)" once the index is complete, else just
 * "Fasteners" (a count from a filling index would read as the category's size).
 */
export function categoryOption(
  category: CategoryLine & { id: number },
  complete: boolean,
): PlainTextOption {
  const text = complete ? `${category.name} (${formatQty(category.items)})` : category.name;
  return {
    text: {
      type: 'plain_text',
      text: truncatePlain(text, OPTION_TEXT),
      emoji: false,
    },
    value: String(category.id),
  };
}
