/**
 * The item card, made for a phone (one screen, about 20 lines of 40 characters): the answer
 * first (the verdict, or the company's available and on order), then the code, description
 * and status, the branches that hold or expect stock one line each, the sell price beside the
 * internal cost, and buttons. The bill of materials and the kits are shown in place, behind
 * their buttons, with "Back"; every branch is one "All branches (N)" away. Within Slack's
 * limits for any item: the long parts have fixed budgets (itemParts.ts).
 */
import type { Button, KnownBlock } from '@slack/types';
import type { BranchStock, Item } from '../erp/schemas.js';
import type { Freshness } from '../lookup/types.js';
import type { StockVerdict } from '../rules/stock.js';
import {
  ACTION,
  actionId,
  type CardPart,
  type CardQuestion,
  type ItemStateExtra,
  itemState,
  usableCode,
} from './actions.js';
import { actions, context, LIMITS, section, stateButton } from './blocks.js';
import {
  codeSpan,
  type DisplayOptions,
  escapeTruncated,
  footerUnderLead,
  formatQty,
  freshnessText,
  oneLine,
  oneLineAtWord,
  showsCost,
  staleLead,
  staleLeadText,
  statusLabel,
} from './format.js';
import { details, priceAnswer, priceLine } from './itemLines.js';
import {
  allBranchBlocks,
  type BomPart,
  bomBlocks,
  ignoredWordsNote,
  kitBlocks,
  rankBranches,
  unknownBranchNote,
} from './itemParts.js';
import type { SlackMessage } from './message.js';
import { verdictWithPlan, verdictWithPlanSentence } from './planParts.js';
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
   * `best` (default): the branches that hold or expect stock, best first, at most 5, and an
   * "All branches (N)" button; `all`: every branch, a page at a time.
   */
  branchView?: 'best' | 'all';
  /** Page of the all-branches view, from 0. */
  branchPage?: number;
  /** Posted to a channel: no Share, Refresh or paging; a "View" button opens a private copy. */
  shared?: boolean;
  /** Page of a long bill of materials (BOM_PAGE_SIZE components a page), from 0. */
  bomPage?: number;
  /** The bill of materials or the kits, shown in place of the branch lines. */
  part?: CardPart;
  /**
   * What `/stock CODE [N] [branch words]` asked: the buttons carry it, so Refresh and Share
   * keep answering it.
   */
  question?: CardQuestion;
  /** The answer to `question`, worked out before the card is drawn (src/rules/stock.ts). */
  verdict?: StockVerdict;
  /** The item's sell price, where the ERP gave one (search rows carry it; getItem does not). */
  price?: number;
  /** "price of WIDGET-9" asked: the sell price (or that the ERP gave none) comes first. */
  priceFirst?: boolean;
  /** The thread this card was opened from: its buttons carry it, so Share posts there. */
  threadTs?: string;
  /** The conversation the card was asked in: the Watch… modal offers it as the channel. */
  channelId?: string;
}

/** Branches listed on the card; the rest are one "All branches (N)" away. */
const CARD_BRANCHES = 5;
/** Fewer under a plan: its options already name the branches that matter (one phone screen). */
const PLAN_CARD_BRANCHES = 3;

const cardBranches = (model: ItemCardModel): number =>
  (model.verdict?.plan.length ?? 0) > 0 ? PLAN_CARD_BRANCHES : CARD_BRANCHES;

export function itemCard(model: ItemCardModel): SlackMessage {
  const { item, freshness, verdict } = model;
  const view = model.branchView ?? 'best';
  const shared = model.shared ?? false;
  const part = view === 'all' ? undefined : model.part;
  const branches =
    view === 'all'
      ? allBranchBlocks(item.branches, model.branchPage ?? 0, verdict?.branch?.id)
      : { blocks: [], page: 0, pages: 1 };
  const here = stateOf(model, part, branches.page);
  const showCost = showsCost(shared, model);
  const bom = part === 'bom' ? bomPart(model, here, showCost) : undefined;

  const lead = staleLead(freshness, model);
  const blocks: Array<KnownBlock | undefined> = [
    // Old figures say so before any figure: the ERP is away and these come from the cache.
    lead === undefined ? undefined : section(lead),
    ...answerBlocks(model, here),
    description(item, model.path ?? []),
    ...(bom?.blocks ?? []),
    ...(part === 'kits' ? kitBlocks(item.kits) : []),
    ...(part === undefined && view === 'all' ? branches.blocks : []),
    part === undefined && view === 'best'
      ? branchLines(item, verdict?.branch?.id, cardBranches(model))
      : undefined,
    part === undefined
      ? priceLine(item, model.priceFirst ? undefined : model.price, showCost)
      : undefined,
    part === undefined ? details(item) : undefined,
    actions(
      shared
        ? [viewButton(model, here)]
        : [
            ...(bom?.buttons ?? []),
            ...(view === 'all' ? branchPaging(model, branches, here) : []),
            ...partButtons(model, here, part, view),
            ...cardButtons(model, here),
          ],
    ),
    footerUnderLead(freshness, model, shared),
  ];
  return {
    text: fallbackText(model),
    blocks: blocks.filter((b): b is KnownBlock => b !== undefined),
  };
}

/**
 * The first lines: the verdict when a question was asked (and the note on words that named no
 * branch), then the code with the company's available and on order.
 */
function answerBlocks(model: ItemCardModel, here: ItemStateExtra): KnownBlock[] {
  const { item, verdict } = model;
  const totals = section(`*${codeSpan(item.code, 30)}* · ${totalsText(item)}`);
  if (model.priceFirst) return [section(priceAnswer(item.code, model.price, true)), totals];
  if (verdict === undefined) return [totals];
  const asked = verdict.quantity !== undefined || verdict.branch !== undefined;
  const note = () =>
    verdict.branch === undefined
      ? unknownBranchNote(
          verdict.unknownWords,
          rankBranches(item.branches).map((b) => b.name),
        )
      : ignoredWordsNote(verdict.unknownWords);
  const noteBlock =
    verdict.unknownWords.length > 0
      ? context(`:information_source: ${escapeTruncated(note(), 400)}`)
      : undefined;
  const blocks = asked
    ? [...verdictWithPlan(item, verdict, here, !(model.shared ?? false)), totals]
    : [totals];
  return noteBlock ? [...blocks, noteBlock] : blocks;
}

/** "*42 available* · 42 on order", over-allocation said in words. */
function totalsText(item: Item): string {
  const available =
    item.available < 0
      ? `:warning: *${formatQty(-item.available)} over-allocated*`
      : `*${formatQty(item.available)} available*`;
  return item.onorder > 0 ? `${available} · ${formatQty(item.onorder)} on order` : available;
}

/** Description and status (Disabled stands out), and on a drill-down the path that led here. */
function description(item: Item, path: readonly string[]): KnownBlock {
  const text = oneLineAtWord(item.description, 72);
  const status = statusLabel(item.status_label, 'Disabled', 30);
  const trail =
    path.length > 0
      ? `:arrow_down_small: in ${path.map((c) => codeSpan(c, 20)).join(' › ')}`
      : undefined;
  return context([text, status, trail].filter(Boolean).join(' · ') || '—');
}

const holdsOrExpects = (b: BranchStock) =>
  b.soh !== 0 || b.onorder !== 0 || b.allocated !== 0 || b.available !== 0;

/** One branch on one line: "*Sydney* · 37 free · 20 on order". */
function branchLine(b: BranchStock): string {
  const free =
    b.available < 0
      ? `${formatQty(-b.available)} over-allocated`
      : `${formatQty(b.available)} free`;
  const onOrder = b.onorder > 0 ? ` · ${formatQty(b.onorder)} on order` : '';
  return `*${oneLine(b.name, 18) || '—'}* · ${free}${onOrder}`;
}

/** The branches that hold or expect stock, best first (the one asked about first), at most 5. */
function branchLines(item: Item, firstId: number | undefined, limit: number): KnownBlock {
  if (item.branches.length === 0) return section('The ERP lists no branches.');
  const ranked = rankBranches(item.branches);
  const asked = ranked.filter((b) => b.id === firstId);
  const stocked = [...asked, ...ranked.filter((b) => b.id !== firstId && holdsOrExpects(b))];
  if (stocked.length === 0) return section('No branch holds or expects stock.');
  return section(stocked.slice(0, limit).map(branchLine).join('\n'));
}

/** The bill of materials in place: one page of components, with the path when drilled down. */
function bomPart(model: ItemCardModel, here: ItemStateExtra, showCost: boolean): BomPart {
  return bomBlocks(model.item, {
    path: model.path ?? [],
    pathPages: model.pathPages ?? [],
    showCost,
    page: model.bomPage ?? 0,
    interactive: !(model.shared ?? false),
    pageState: (bomPage) => itemState(model.item, { ...here, bomPage }),
  });
}

/** Where the user is on this card: the state Refresh and Share carry. */
function stateOf(
  model: ItemCardModel,
  part: CardPart | undefined,
  branchPage: number,
): ItemStateExtra {
  const view = model.branchView ?? 'best';
  return {
    path: model.path ?? [],
    pathPages: model.pathPages ?? [],
    allBranches: view === 'all',
    ...(part === undefined ? {} : { part }),
    branchPage: view === 'all' ? branchPage : 0,
    bomPage: part === 'bom' ? (model.bomPage ?? 0) : 0,
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
  if (branches.pages <= 1) return [];
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

/**
 * "All branches (N)", "Bill of materials (N)", "Kits (N)" on the card; "Back" from any of
 * them. All three change the card in place.
 */
function partButtons(
  model: ItemCardModel,
  here: ItemStateExtra,
  part: CardPart | undefined,
  view: 'best' | 'all',
): Array<Button | undefined> {
  const { item } = model;
  const main = { ...here, allBranches: false, part: undefined, branchPage: 0, bomPage: 0 };
  if (part !== undefined || view === 'all') {
    return [
      stateButton('‹ Back', actionId(ACTION.itemPart, 0), itemState(item, main), {
        accessibilityLabel: `Back to the card of ${item.code}`,
      }),
    ];
  }
  const shown = item.branches.filter(holdsOrExpects).slice(0, cardBranches(model)).length;
  const bom = item.bom.length;
  return [
    item.branches.length > shown
      ? stateButton(
          `All branches (${formatQty(item.branches.length)})`,
          ACTION.itemAllBranches,
          itemState(item, { ...main, allBranches: true }),
        )
      : undefined,
    item.has_bom || bom > 0
      ? stateButton(
          `Bill of materials (${formatQty(bom)})`,
          actionId(ACTION.itemPart, 1),
          itemState(item, { ...main, part: 'bom' }),
        )
      : undefined,
    item.kits.length > 0
      ? stateButton(
          `Kits (${formatQty(item.kits.length)})`,
          actionId(ACTION.itemPart, 2),
          itemState(item, { ...main, part: 'kits' }),
        )
      : undefined,
  ];
}

function cardButtons(model: ItemCardModel, here: ItemStateExtra): Array<Button | undefined> {
  const { item } = model;
  const path = model.path ?? [];
  const pathPages = model.pathPages ?? [];
  const current = itemState(item, here);
  const parent = path.at(-1);
  return [
    stateButton('Refresh', ACTION.itemRefresh, current),
    stateButton('Share to channel', ACTION.itemShare, current, { style: 'primary' }),
    watchOpenButton(item.code, model.channelId),
    supersededButton(item),
    // One level up the drill-down; an Expand of the parent, so it shares that listener.
    parent !== undefined && usableCode(parent)
      ? stateButton(
          `‹ Up to ${parent}`,
          actionId(ACTION.itemExpand, 0),
          itemState(
            { code: parent, id: 0 },
            {
              path: path.slice(0, -1),
              pathPages: pathPages.slice(0, path.length - 1),
              bomPage: pathPages[path.length - 1] ?? 0,
              part: 'bom',
            },
          ),
        )
      : undefined,
  ];
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

/** The answer first: the price asked, the verdict sentence, or the available and on order. */
function fallbackText(model: ItemCardModel): string {
  const { item, verdict } = model;
  const lead = staleLeadText(model.freshness, model.now);
  // Under a stale lead, which says how old the figures are, "when" is only when fetched.
  const when = freshnessText({ ...model.freshness, stale: false }, model.now);
  const first = lead === undefined ? '' : `${lead}. `;
  if (model.priceFirst) {
    const line = `${first}${priceAnswer(item.code, model.price, false)}; ${plainAnswer(item, when)}`;
    return escapeTruncated(line.replace(/\s+/g, ' '), LIMITS.fallbackText / 4);
  }
  const asked =
    verdict !== undefined && (verdict.quantity !== undefined || verdict.branch !== undefined);
  const line = `${first}${
    asked
      ? `${verdictWithPlanSentence(verdict, model.question?.option)} ${item.code}: ${when}`
      : plainAnswer(item, when)
  }`;
  return escapeTruncated(line.replace(/\s+/g, ' '), LIMITS.fallbackText / 4);
}

function plainAnswer(item: Item, when: string): string {
  const available =
    item.available < 0
      ? `${formatQty(-item.available)} over-allocated`
      : `${formatQty(item.available)} available`;
  const status = item.status_label === 'Active' ? '' : ` (${item.status_label})`;
  const description = item.description ? `, ${item.description}` : '';
  return `${item.code}: ${available}, ${formatQty(item.onorder)} on order${status}; ${when}${description}`;
}
