/**
 * The long parts of the item card: branches, BOM and kits. Each part has a fixed share of
 * the message's text budget and block count, so an item with 80 components, 60 branches and
 * 40 kit entries still fits in one message (50 blocks, about 12,000 characters). Below, the
 * verdict in words, the card's first line.
 */
import type { Button, KnownBlock } from '@slack/types';
import type { BomComponent, BranchStock, Item, KitEntry } from '../erp/schemas.js';
import type { StockVerdict, VerdictBranch } from '../rules/stock.js';
import { ACTION, actionId, type ItemCardState, itemState, MAX_PATH } from './actions.js';
import { context, packLines, section, stateButton, truncatePlain } from './blocks.js';
import {
  codeSpan,
  escapeMrkdwn,
  formatMoney,
  formatQty,
  oneLine,
  oneLineAtWord,
  plural,
} from './format.js';

/** Up to this many branches are shown as two-column fields; more become compact lines. */
const MAX_BRANCH_FIELDS = 20;
/** Branches a page of the all-branches view: two sections of fields. */
const BRANCH_PAGE_SIZE = MAX_BRANCH_FIELDS;
const BUDGET = {
  bom: 3800,
  kits: 1800,
} as const;
/** Expand buttons are capped well below the 25 an actions block allows: a wall of buttons helps nobody. */
const MAX_EXPAND_BUTTONS = 10;

/** Best first: most available, then most on hand, then by name (stable for equal stock). */
export function rankBranches(branches: readonly BranchStock[]): BranchStock[] {
  return [...branches].sort(
    (a, b) => b.available - a.available || b.soh - a.soh || a.name.localeCompare(b.name),
  );
}

/** The figure in a sentence: "*42* available", ":warning: *-4* available, over-allocated". */
export function availablePhrase(available: number): string {
  if (available < 0) return `:warning: *${formatQty(available)}* available, over-allocated`;
  return `*${formatQty(available)}* available`;
}

/** Column widths of the branch table: 37 characters, what a phone shows without wrapping. */
const COLUMNS = { name: 13, available: 6, soh: 7, onorder: 8 } as const;

/** A code block keeps its characters; only a backtick could end it early. */
const inCode = (text: string) => text.replaceAll('`', 'ˋ');

function cell(text: string, width: number, align: 'left' | 'right'): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  // Names are cut to fit; a figure never is (its row is then a little wider).
  const cut = align === 'left' && chars.length > width;
  const fitted = cut ? `${chars.slice(0, width - 1).join('')}…` : chars.join('');
  const pad = ' '.repeat(Math.max(0, width - [...fitted].length));
  return align === 'left' ? fitted + pad : pad + fitted;
}

/** One aligned row: the figures line up under their headings in Slack's monospace. */
function tableRow(name: string, available: string, soh: string, onorder: string): string {
  return [
    cell(name, COLUMNS.name, 'left'),
    cell(available, COLUMNS.available, 'right'),
    cell(soh, COLUMNS.soh, 'right'),
    cell(onorder, COLUMNS.onorder, 'right'),
  ].join(' ');
}

const TABLE_HEADINGS = tableRow('Branch', 'Avail', 'On hand', 'On order');

function branchRow(b: BranchStock): string {
  return tableRow(
    b.name || '—',
    formatQty(b.available),
    formatQty(b.soh),
    b.onorder === 0 ? '–' : formatQty(b.onorder),
  );
}

/**
 * Branches as one monospace table (a code block): one line per branch, figures aligned.
 * Slack's table block would align them too, but the platform notes do not confirm it renders
 * in ephemeral and response_url messages, where most cards live; a code block renders
 * everywhere, the terminal console included.
 */
function branchTable(title: string, shown: readonly BranchStock[]): KnownBlock {
  const rows = [TABLE_HEADINGS, ...shown.map(branchRow)].map(inCode).join('\n');
  return section(`${title}\n\`\`\`${escapeMrkdwn(rows)}\`\`\``);
}

interface BranchPart {
  blocks: KnownBlock[];
  /** The page shown (clamped) and how many there are. */
  page: number;
  pages: number;
}

/**
 * Every branch, best first, a page of 20 at a time (`page` from 0; out of range shows the
 * last), the branch asked about (`firstId`) first on the first page. The card's own view
 * lists the best few itself (itemCard.ts).
 */
export function allBranchBlocks(
  branches: readonly BranchStock[],
  requestedPage = 0,
  firstId?: number,
): BranchPart {
  const ranked = branchFirst(rankBranches(branches), firstId);
  const pages = Math.max(1, Math.ceil(ranked.length / BRANCH_PAGE_SIZE));
  const page = Math.min(Math.max(0, requestedPage), pages - 1);
  const first = page * BRANCH_PAGE_SIZE;
  const shown = ranked.slice(first, first + BRANCH_PAGE_SIZE);
  const overAllocated = shown.filter((b) => b.available < 0).length;
  const notes = [
    `all ${formatQty(ranked.length)}`,
    pages > 1
      ? `${formatQty(first + 1)}–${formatQty(first + shown.length)} (page ${page + 1} of ${pages})`
      : '',
    overAllocated > 0 ? ':warning: a negative available is over-allocated' : '',
  ].filter(Boolean);
  const title = ['*Stock by branch*', ...notes].join(' · ');
  const part = (blocks: KnownBlock[]): BranchPart => ({ blocks, page, pages });
  if (shown.length === 0) return part([section(`${title}\nThe ERP lists no branches.`)]);
  return part([branchTable(title, shown)]);
}

/** Short enough that code, description, quantity and cost wrap to at most two phone lines. */
const COMPONENT_DESCRIPTION = 28;

function componentLine(c: BomComponent, showCost: boolean): string {
  const description = oneLineAtWord(c.description, COMPONENT_DESCRIPTION);
  const parts = [
    `${codeSpan(c.code)}${description ? ` ${description}` : ''}`,
    `qty ${formatQty(c.qty)}`,
  ];
  if (showCost) parts.push(`cost ${formatMoney(c.cost)}`);
  if (c.has_bom) parts.push('_sub-assembly_');
  return parts.join(' · ');
}

export interface BomPart {
  blocks: KnownBlock[];
  /** Expand buttons for the sub-assemblies on this page, then the page buttons. */
  buttons: Button[];
}

/**
 * Components per page of a bill of materials: the page is the card on a phone, so it holds
 * what one screen holds beside the card's top, buttons and footer (each component takes at
 * most two phone lines, see componentLine).
 */
export const BOM_PAGE_SIZE = 5;

interface BomOptions {
  /** Codes from the top item down to this one's parent. */
  path: readonly string[];
  /** The BOM page each item on `path` was left at, carried down for "Up to". */
  pathPages: readonly number[];
  /** Component costs: only on the asker's private card (or with SHARE_COST). */
  showCost: boolean;
  /** Zero-based page; out-of-range pages show the last one. */
  page: number;
  /** False on a shared card: no Expand or paging there. */
  interactive: boolean;
  /** This card's state on another BOM page, for the page buttons. */
  pageState: (page: number) => ItemCardState;
}

/** One page of the direct components, with an Expand button per sub-assembly on it. */
export function bomBlocks(item: Item, options: BomOptions): BomPart {
  const total = item.bom.length;
  if (total === 0) {
    return {
      blocks: [section('*Bill of materials*\nThe ERP lists no components.')],
      buttons: [],
    };
  }
  const pages = Math.ceil(total / BOM_PAGE_SIZE);
  const page = Math.min(Math.max(0, options.page), pages - 1);
  const first = page * BOM_PAGE_SIZE;
  const components = item.bom.slice(first, first + BOM_PAGE_SIZE);
  // One phone line: "Bill of materials · 81–85 of 86".
  const title =
    pages > 1
      ? `*Bill of materials* · ${first + 1}–${first + components.length} of ${formatQty(total)}`
      : `*Bill of materials* · ${plural(total, 'component')}`;
  const lines = components.map((c) => componentLine(c, options.showCost));
  const { sections } = packLines([title, ...lines], {
    maxChars: BUDGET.bom,
    maxSections: 2,
    more: (rest) => `_+${plural(rest.length, 'more component')} not shown_`,
  });
  if (!options.interactive) return { blocks: sections, buttons: [] };
  const childPath = [...options.path, item.code];
  const childPages = [...options.pathPages.slice(0, options.path.length), page];
  while (childPages.length < childPath.length) childPages.unshift(0);
  const expand =
    childPath.length <= MAX_PATH
      ? components
          .filter((c) => c.has_bom)
          .slice(0, MAX_EXPAND_BUTTONS)
          .map((c, i) =>
            stateButton(
              `Expand ${c.code}`,
              actionId(ACTION.itemExpand, i + 1),
              itemState(
                { code: c.code, id: c.inventoryId },
                { path: childPath, pathPages: childPages, part: 'bom' },
              ),
              { accessibilityLabel: `Expand the bill of materials of ${c.code}` },
            ),
          )
      : [];
  const paging = [
    page > 0
      ? stateButton('‹ Previous components', ACTION.itemBomPage, options.pageState(page - 1))
      : undefined,
    page < pages - 1
      ? stateButton(
          'Next components ›',
          actionId(ACTION.itemBomPage, 1),
          options.pageState(page + 1),
        )
      : undefined,
  ];
  return {
    blocks: sections,
    buttons: [...expand, ...paging].filter((b): b is Button => b !== undefined),
  };
}

const OTHER_GROUP = 'Other';

/** Kit entries grouped by group name, named groups in ERP order, the unnamed ones last. */
function groupKits(kits: readonly KitEntry[]): Array<[string, KitEntry[]]> {
  const groups = new Map<string, KitEntry[]>();
  for (const kit of kits) {
    const name = kit.groupname.trim() === '' ? OTHER_GROUP : kit.groupname.trim();
    groups.set(name, [...(groups.get(name) ?? []), kit]);
  }
  const named = [...groups].filter(([name]) => name !== OTHER_GROUP);
  const other = groups.get(OTHER_GROUP);
  return other ? [...named, [OTHER_GROUP, other]] : named;
}

const KIT_BULLET = '• ';

function kitLine(k: KitEntry): string {
  const description = oneLineAtWord(k.description, 60);
  const mark = k.auto ? ' · :white_check_mark: _pre-selected_' : '';
  return `${KIT_BULLET}${codeSpan(k.code)}${description ? ` ${description}` : ''} · qty ${formatQty(k.qty)}${mark}`;
}

export function kitBlocks(kits: readonly KitEntry[]): KnownBlock[] {
  const lines = ['*Sold with it* (kit suggestions)'];
  for (const [name, entries] of groupKits(kits)) {
    lines.push(`*${oneLine(name, 60)}*`, ...entries.map(kitLine));
  }
  const { sections } = packLines(lines, {
    maxChars: BUDGET.kits,
    maxSections: 1,
    more: (rest) => {
      const entries = rest.filter((line) => line.startsWith(KIT_BULLET)).length;
      return `_+${plural(entries, 'more kit suggestion')} not shown_`;
    },
  });
  return sections;
}

/** The item's branches with the asked-for one first, the rest in their given order. */
export function branchFirst(
  branches: readonly BranchStock[],
  id: number | undefined,
): BranchStock[] {
  if (id === undefined) return [...branches];
  const first = branches.filter((b) => b.id === id);
  return [...first, ...branches.filter((b) => b.id !== id)];
}

// The verdict in words, made for a phone: one line of about 80 characters ("❌ No: Perth has
// 0 free (2 over-allocated), 10 on order with no date"), and on the next the branches that
// could cover it ("Sydney could: 37 free"). The plain sentence (`verdictSentence`) adds what
// was asked, for the `text` fallback (what a notification shows), a shared message and the
// workflow step's `summary` output.

/** ERP text on one line, plain (the sentence is escaped once, where it becomes mrkdwn). */
const plainLine = (text: string, max: number): string =>
  truncatePlain(text.replace(/\s+/g, ' ').trim(), max);

/** A branch name in a verdict line: short enough that the line stays about 80 characters. */
const name = (branch: VerdictBranch) => plainLine(branch.name, 24) || 'an unnamed branch';

/** How long the "could cover it" line may grow before the rest become "+N more". */
const COVER_LINE = 80;

/** "Perth has 0 free (2 over-allocated)", "42 free company-wide". */
function freeClause(verdict: StockVerdict): string {
  const free = formatQty(verdict.promisable);
  const over = verdict.available < 0 ? ` (${formatQty(-verdict.available)} over-allocated)` : '';
  return verdict.branch === undefined
    ? `${free} free company-wide${over}`
    : `${name(verdict.branch)} has ${free} free${over}`;
}

/** On-order stock is never promised: the ERP gives no due date for it. */
function onOrderClause(verdict: StockVerdict): string {
  return verdict.onOrder > 0 ? `, ${formatQty(verdict.onOrder)} on order with no date` : '';
}

/** The answer word: yes or no with a quantity; in stock or none for a branch alone. */
function answerWord(verdict: StockVerdict): string {
  if (verdict.quantity !== undefined) return verdict.canSupply ? 'Yes' : 'No';
  return verdict.canSupply ? 'In stock' : 'None free';
}

/** The verdict in one line: "No: Perth has 0 free (2 over-allocated), 10 on order with no date". */
export function verdictLine(verdict: StockVerdict): string {
  return `${answerWord(verdict)}: ${freeClause(verdict)}${onOrderClause(verdict)}`;
}

/**
 * The line under a "no" (or a branch with none): who could cover it alone, best first, as
 * many as fit in about 80 characters. Empty when there is nothing to add.
 */
export function coverLine(verdict: StockVerdict): string {
  if (verdict.canSupply) return '';
  if (verdict.branch === undefined && verdict.quantity === undefined) return '';
  const covering = verdict.coveringBranches;
  if (covering.length === 0) {
    if (verdict.quantity === undefined) return 'No other branch has any free.';
    return `No single branch has ${formatQty(verdict.quantity)} free.`;
  }
  const [first, ...others] = covering;
  if (first === undefined) return '';
  let line = `${name(first)} could: ${formatQty(first.available)} free`;
  let shown = 1;
  for (const other of others) {
    const next = ` · ${name(other)}: ${formatQty(other.available)}`;
    if ((line + next).length > COVER_LINE - 10) break;
    line += next;
    shown += 1;
  }
  const more = covering.length - shown;
  return more > 0 ? `${line} · ${plural(more, 'more')}` : line;
}

/** What was asked, for the plain sentence: "50 of WIDGET-9 at Perth". */
function asked(verdict: StockVerdict): string {
  const code = plainLine(verdict.code, 60);
  const where = verdict.branch === undefined ? '' : ` at ${name(verdict.branch)}`;
  return verdict.quantity === undefined
    ? `${code}${where}`
    : `${formatQty(verdict.quantity)} of ${code}${where}`;
}

/**
 * The verdict as one plain sentence, answer first: "No, 50 of WIDGET-9 at Perth: Perth has 0
 * free (2 over-allocated), 10 on order with no date. Sydney could: 37 free."
 */
export function verdictSentence(verdict: StockVerdict): string {
  const cover = coverLine(verdict);
  const figures = `${freeClause(verdict)}${onOrderClause(verdict)}.`;
  return `${answerWord(verdict)}, ${asked(verdict)}: ${figures}${cover ? ` ${cover}` : ''}`;
}

/** The verdict as the card's first lines: the answer (bold yes/no), then who could cover it. */
export function verdictBlocks(verdict: StockVerdict): KnownBlock[] {
  const icon = verdict.canSupply ? ':white_check_mark:' : ':x:';
  const line = escapeMrkdwn(verdictLine(verdict)).replace(/^([^:]+):/, '*$1:*');
  const cover = coverLine(verdict);
  return cover
    ? [section(`${icon} ${line}`), context(escapeMrkdwn(cover))]
    : [section(`${icon} ${line}`)];
}

/**
 * Branch words that named nothing, beside an answer that named a branch anyway (`Perth WA`):
 * said, never turned into a company-wide answer.
 */
export function ignoredWordsNote(words: readonly string[]): string {
  const quoted = words.slice(0, 5).map((w) => `“${plainLine(w, 30)}”`);
  return `Not read as a branch: ${quoted.join(', ')}.`;
}

/** The note when branch words named no branch of this item (a card with no quantity). */
export function unknownBranchNote(
  unknownWords: readonly string[],
  branchNames: readonly string[],
): string {
  const words = unknownWords
    .slice(0, 5)
    .map((w) => `“${plainLine(w, 30)}”`)
    .join(', ');
  const names = branchNames.slice(0, 6).map((n) => plainLine(n, 20));
  const more = branchNames.length > 6 ? ` +${branchNames.length - 6}` : '';
  const known = names.length === 0 ? 'it lists no branches' : `${names.join(', ')}${more}`;
  return `${words}: not a branch here (${known}).`;
}
