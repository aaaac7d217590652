/**
 * The item card: what a salesperson needs at a glance (how many can I sell, where), then the
 * details (BOM, kits), then when the data is from. Within Slack's limits for any item: the
 * long parts have fixed budgets (itemParts.ts).
 */
import type { Button, KnownBlock } from '@slack/types';
import type { Item } from '../erp/schemas.js';
import type { Freshness } from '../lookup/types.js';
import { type StockVerdict, stockVerdict } from '../lookup/verdict.js';
import { ACTION, actionId } from './actions.js';
import {
  actions,
  context,
  divider,
  fieldsSection,
  header,
  section,
  stateButton,
} from './blocks.js';
import { type DisplayOptions, footer, showsCost } from './display.js';
import { formatMoney, formatQty, freshnessText } from './format.js';
import { availableText, bomBlocks, branchBlocks, kitBlocks } from './itemParts.js';
import { LIMITS, truncateAtWord, truncatePlain } from './limits.js';
import type { SlackMessage } from './message.js';
import { codeSpan, escapeTruncated, oneLine, oneLineAtWord, statusLabel } from './mrkdwn.js';
import { type CardQuestion, type ItemStateExtra, itemState } from './states.js';
import { verdictBlocks, verdictSentence } from './verdict.js';
import { watchOpenButton } from './watchButtons.js';

export interface ItemCardModel extends DisplayOptions {
  item: Item;
  freshness: Freshness;
  now: Date;
  /** BOM drill-down: codes from the top item down to this one's parent, top first. */
  path?: readonly string[];
  /** The BOM page each item on `path` was left at, so "Up to" returns there. */
  pathPages?: readonly number[];
  /**
   * `best` (default): branches that hold or expect stock, best first, at most 8, with the
   * count of empty ones and an "All branches" button; `all`: every branch, a page at a time.
   */
  branchView?: 'best' | 'all';
  /** Page of the all-branches view, from 0. */
  branchPage?: number;
  /** Posted to a channel: no Share, Refresh or paging; a "View" button opens a private copy. */
  shared?: boolean;
  /** Page of a long bill of materials (20 components a page), from 0. */
  bomPage?: number;
  /**
   * What `/stock CODE [N] [branch words]` asked: the verdict comes first (and in the `text`
   * fallback, which is what a notification shows), and the branch named is listed first.
   */
  question?: CardQuestion;
  /** The thread this card was opened from: its buttons carry it, so Share posts there. */
  threadTs?: string;
  /** The conversation the card was asked in: the Watch… modal offers it as the channel. */
  channelId?: string;
}

export function itemCard(model: ItemCardModel): SlackMessage {
  const { item, freshness } = model;
  const path = model.path ?? [];
  const view = model.branchView ?? 'best';
  const shared = model.shared ?? false;
  const showCost = showsCost(shared, model);
  const verdict = model.question === undefined ? undefined : stockVerdict(item, model.question);
  const branches = branchBlocks(item.branches, view, model.branchPage ?? 0, verdict?.branch?.id);
  const here = stateOf(model, branches.page);
  const bom =
    item.has_bom || item.bom.length > 0
      ? bomBlocks(item, {
          path,
          pathPages: model.pathPages ?? [],
          showCost,
          page: model.bomPage ?? 0,
          interactive: !shared,
          pageState: (bomPage) => itemState(item, { ...here, bomPage }),
        })
      : undefined;

  const blocks: Array<KnownBlock | undefined> = [
    path.length > 0 ? breadcrumb(path, item.code) : undefined,
    header(headerText(item)),
    ...(verdict
      ? verdictBlocks(
          verdict,
          item.branches.map((b) => b.name),
        )
      : []),
    longDescription(item),
    summary(item, showCost),
    context(LEGEND),
    divider(),
    ...branches.blocks,
    shared ? undefined : actions(branchPaging(model, branches, here)),
    ...(bom ? [divider(), ...bom.blocks] : []),
    bom && bom.buttons.length > 0 ? actions(bom.buttons) : undefined,
    ...(item.kits.length > 0 ? [divider(), ...kitBlocks(item.kits)] : []),
    footer(freshness, model),
    actions(
      shared
        ? [viewButton(model, here)]
        : cardButtons(model, here, view, branches.hidden || view === 'all'),
    ),
  ];
  return {
    text: fallbackText(model, verdict),
    blocks: blocks.filter((b): b is KnownBlock => b !== undefined),
  };
}

/** What the two figures people confuse mean, in one line. */
const LEGEND =
  '_Available_ is on hand minus allocated: what can be promised now. _On order_ has no due date, so it is never counted as available.';

/**
 * Room for a description the header cannot hold. The long parts' budgets (itemParts.ts) leave
 * about this much of Slack's 12,000 characters free on the largest card.
 */
const DESCRIPTION_BUDGET = 600;

/**
 * Code and description as the header, cut at a word when they do not fit its 150
 * characters; `longDescription` then shows the description again, longer, below it.
 */
function headerText(item: Item): string {
  const description = item.description.replace(/\s+/g, ' ').trim();
  const full = description ? `${item.code} · ${description}` : item.code;
  return truncateAtWord(full, LIMITS.headerText, truncatePlain);
}

function longDescription(item: Item): KnownBlock | undefined {
  const description = item.description.replace(/\s+/g, ' ').trim();
  if (description === '' || `${item.code} · ${description}`.length <= LIMITS.headerText) {
    return undefined;
  }
  return section(oneLineAtWord(description, DESCRIPTION_BUDGET));
}

function breadcrumb(path: readonly string[], code: string): KnownBlock {
  const trail = [...path.map((c) => codeSpan(c, 30)), `*${codeSpan(code, 30)}*`].join(' › ');
  return context(`:arrow_down_small: Bill of materials: ${trail}`);
}

function statusText(label: string): string {
  return statusLabel(label, 'Disabled', 60) || '—';
}

/** Where the user is on this card: the state Refresh and Share carry. */
function stateOf(model: ItemCardModel, branchPage: number): ItemStateExtra {
  const view = model.branchView ?? 'best';
  return {
    path: model.path ?? [],
    pathPages: model.pathPages ?? [],
    allBranches: view === 'all',
    branchPage: view === 'all' ? branchPage : 0,
    bomPage: model.bomPage ?? 0,
    ...(model.question === undefined ? {} : { question: model.question }),
    ...(model.threadTs === undefined ? {} : { threadTs: model.threadTs }),
  };
}

/** ‹ Previous branches / Next branches › under the all-branches view. */
function branchPaging(
  model: ItemCardModel,
  branches: { page: number; pages: number },
  here: ItemStateExtra,
): Array<Button | undefined> {
  if ((model.branchView ?? 'best') !== 'all' || branches.pages <= 1) return [];
  const { page, pages } = branches;
  return [
    page > 0
      ? stateButton(
          '‹ Previous branches',
          ACTION.itemBranchPage,
          itemState(model.item, { ...here, branchPage: page - 1 }),
        )
      : undefined,
    page < pages - 1
      ? stateButton(
          'Next branches ›',
          actionId(ACTION.itemBranchPage, 1),
          itemState(model.item, { ...here, branchPage: page + 1 }),
        )
      : undefined,
  ];
}

/** The headline figures first (available, on hand), then who and what it is. */
function summary(item: Item, showCost: boolean): KnownBlock {
  const fields: Array<[string, string]> = [
    ['Available', availableText(item.available)],
    ['On hand', formatQty(item.soh)],
    ['Allocated', formatQty(item.allocated)],
    ['On order', formatQty(item.onorder)],
    ['Status', statusText(item.status_label)],
    ['Category', oneLine(item.category, 100) || '—'],
    ['Primary supplier', oneLine(item.primarysupplier, 100) || '—'],
  ];
  // Cost is internal: a channel can hold partners (Slack Connect).
  if (showCost) fields.push(['Cost (internal)', formatMoney(item.cost)]);
  const supplierCodes = readableSupplierCodes(item.supplierCodes);
  if (supplierCodes) fields.push(['Supplier codes', supplierCodes]);
  return fieldsSection(fields);
}

/**
 * `supplierCodes` elements have no documented shape: strings, numbers and objects with a
 * string `code` are shown; anything else is left out rather than shown as `[object Object]`.
 */
function readableSupplierCodes(codes: readonly unknown[]): string {
  const readable = codes
    .map((entry) => {
      if (typeof entry === 'string' || typeof entry === 'number') return String(entry);
      if (typeof entry === 'object' && entry !== null && 'code' in entry) {
        const code = (entry as { code: unknown }).code;
        return typeof code === 'string' ? code : '';
      }
      return '';
    })
    .filter((code) => code.trim() !== '');
  if (readable.length === 0) return '';
  const shown = readable.slice(0, 5).map((code) => codeSpan(code, 40));
  return readable.length > 5 ? `${shown.join(', ')} +${readable.length - 5}` : shown.join(', ');
}

function cardButtons(
  model: ItemCardModel,
  here: ItemStateExtra,
  view: 'best' | 'all',
  offerToggle: boolean,
): Button[] {
  const { item } = model;
  const path = model.path ?? [];
  const pathPages = model.pathPages ?? [];
  const current = itemState(item, here);
  const parent = path.at(-1);
  const buttons = [
    stateButton('Refresh', ACTION.itemRefresh, current),
    stateButton('Share to channel', ACTION.itemShare, current, { style: 'primary' }),
    watchOpenButton(item.code, model.channelId),
    supersededButton(item),
    offerToggle
      ? stateButton(
          view === 'all' ? 'Top branches only' : 'All branches',
          ACTION.itemAllBranches,
          itemState(item, { ...here, allBranches: view !== 'all', branchPage: 0 }),
        )
      : undefined,
    // One level up the drill-down; an Expand of the parent, so it shares that listener.
    parent !== undefined && parent.length > 0 && parent.length <= 100
      ? stateButton(
          `‹ Up to ${parent}`,
          actionId(ACTION.itemExpand, 0),
          itemState(
            { code: parent, id: 0 },
            {
              path: path.slice(0, -1),
              pathPages: pathPages.slice(0, path.length - 1),
              bomPage: pathPages[path.length - 1] ?? 0,
            },
          ),
        )
      : undefined,
  ];
  return buttons.filter((b): b is Button => b !== undefined);
}

/**
 * "superseded by CODE" in an item's description (the ERP has no field for it, but people
 * write it there) becomes a View button for the replacement. The pattern has one bounded run
 * after a fixed phrase, so it stays linear in the description's length.
 */
const SUPERSEDED_BY = /\b(?:superseded|replaced) by ([A-Za-z0-9][A-Za-z0-9._/-]{0,39})/i;

export function supersededBy(item: Pick<Item, 'code' | 'description'>): string | undefined {
  const code = SUPERSEDED_BY.exec(item.description ?? '')?.[1]?.replace(/[._/-]+$/, '');
  return code && code.toUpperCase() !== item.code.toUpperCase() ? code : undefined;
}

function supersededButton(item: Item): Button | undefined {
  const code = supersededBy(item);
  if (code === undefined) return undefined;
  return stateButton(
    `View ${code} (replaces this)`,
    actionId(ACTION.itemView, 90),
    itemState({ code, id: 0 }),
    { accessibilityLabel: `View ${code}, which supersedes ${item.code}` },
  );
}

/** On a shared card: anyone can open their own (ephemeral) copy with every button. */
function viewButton(model: ItemCardModel, here: ItemStateExtra): Button | undefined {
  return stateButton('View', ACTION.itemView, itemState(model.item, here), {
    accessibilityLabel: `View ${model.item.code} privately`,
  });
}

function fallbackText(model: ItemCardModel, verdict: StockVerdict | undefined): string {
  const { item } = model;
  if (verdict) {
    const line = `${verdictSentence(verdict)} ${freshnessText(model.freshness)}`;
    return escapeTruncated(line.replace(/\s+/g, ' '), LIMITS.fallbackText / 4);
  }
  const status = item.status_label === 'Active' ? '' : ` (${item.status_label})`;
  const availability =
    item.available < 0
      ? `${formatQty(item.available)} available, over-allocated`
      : `${formatQty(item.available)} available`;
  const line = `${item.code}${item.description ? ` ${item.description}` : ''}${status}: ${availability}, ${formatQty(item.soh)} on hand; ${freshnessText(model.freshness)}`;
  return escapeTruncated(line.replace(/\s+/g, ' '), LIMITS.fallbackText / 4);
}
