/**
 * Button action ids and the state each button carries in its `value`.
 *
 * Values are compact, versioned JSON validated with zod, so any replica can answer any click
 * and a forged or stale value gets a clear answer instead of an exception. They never hold
 * personal data: contacts are referred to by code or id only. Below, the states built from
 * ERP records.
 */
import { z } from 'zod';
import type { ContactQuery, ItemQuery } from '../lookup/types.js';

export const ACTION = {
  itemView: 'stock_view',
  itemExpand: 'stock_expand',
  itemBomPage: 'stock_bom_page',
  itemAllBranches: 'stock_all_branches',
  itemBranchPage: 'stock_branch_page',
  itemRefresh: 'stock_refresh',
  /** "Bill of materials (N)", "Kits (N)" and "Back": what the card shows in place. */
  itemPart: 'stock_part',
  itemShare: 'stock_share',
  itemNextPage: 'stock_next_page',
  itemPrevPage: 'stock_prev_page',
  contactView: 'contact_view',
  contactPeoplePage: 'contact_people_page',
  contactRefresh: 'contact_refresh',
  contactShare: 'contact_share',
  contactReveal: 'contact_reveal',
  contactNextPage: 'contact_next_page',
  contactPrevPage: 'contact_prev_page',
  /** "Try again" on a command's "ERP not answering" or "busy" answer: runs it again. */
  commandRetry: 'command_retry',
} as const;

export type ActionBase = (typeof ACTION)[keyof typeof ACTION];

/**
 * Slack wants action ids unique within a block, so repeated buttons (one "View" per search
 * row, one "Expand" per component) get an index suffix: `stock_view:3`.
 */
export function actionId(base: ActionBase, index?: number): string {
  return index === undefined ? base : `${base}:${index}`;
}

export const MAX_VALUE_LENGTH = 2000;
export const VALUE_VERSION = 1;

/**
 * What a state carries: codes of 1 to 100 characters, a drill-down path of up to 10 of them,
 * and up to 5 words of 40 characters (branch words, people words). The builders below keep
 * within these, and the views that offer a button ask them (`usableCode`, `MAX_PATH`).
 */
const MAX_CODE = 100;
export const MAX_PATH = 10;
const MAX_WORD = 40;
const MAX_WORDS = 5;
const code = z.string().min(1).max(MAX_CODE);
const shortWords = z.array(z.string().min(1).max(MAX_WORD)).max(MAX_WORDS);
const ref = z.union([
  z.object({ c: code }).strict(),
  z.object({ i: z.number().int().nonnegative() }).strict(),
]);
const words = z.array(z.string().min(1).max(100)).max(20);
const offset = z.number().int().min(0).max(100_000);
/** A Slack message timestamp, as `thread_ts` takes it (`1516229207.000133`). */
export const THREAD_TS = z.string().regex(/^\d{1,12}\.\d{1,9}$/);

/** An item card: which item, which branch view, and the BOM path that led here. */
export const ItemCardState = z
  .object({
    v: z.literal(VALUE_VERSION),
    t: z.literal('i'),
    r: ref,
    /** `a`: all branches instead of the best ones; `b`: the bill of materials; `k`: the kits. */
    m: z.enum(['a', 'b', 'k']).optional(),
    /** Codes from the top-level item to this one (Expand drill-down), top first. */
    p: z.array(code).max(MAX_PATH).optional(),
    /** Page of a long bill of materials, from 0. */
    bp: z.number().int().min(0).max(1000).optional(),
    /**
     * The BOM page each item on the path was left at (same order as `p`), so that "Up to"
     * returns to the page the user came from.
     */
    pg: z.array(z.number().int().min(0).max(1000)).max(10).optional(),
    /** Page of the all-branches view, from 0. */
    br: z.number().int().min(0).max(1000).optional(),
    /** The quantity asked about (`/stock CODE 50`): the card answers it first. */
    q: z.number().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    /** The branch words asked about (`/stock CODE perth`): that branch first. */
    b: shortWords.optional(),
    /** The thread the card was opened from (the message shortcut's answer): Share posts there. */
    th: THREAD_TS.optional(),
    /** An option of the plan after a No, answered as the card's verdict: `s` split, `l` later. */
    o: z.enum(['s', 'l']).optional(),
  })
  .strict();

/** A contact card, with the page of people shown. */
export const ContactCardState = z
  .object({
    v: z.literal(VALUE_VERSION),
    t: z.literal('c'),
    r: ref,
    pp: z.number().int().min(0).max(1000).optional(),
    /** `a`: every person, a page at a time, instead of the first five. */
    m: z.enum(['a']).optional(),
    /** People filter (`/contact ACME01 accounts`): Reveal reveals only the people it keeps. */
    pf: shortWords.optional(),
  })
  .strict();

const ItemSearchState = z
  .object({
    v: z.literal(VALUE_VERSION),
    t: z.literal('is'),
    w: words,
    cat: z.number().int().nonnegative().optional(),
    sup: z.number().int().nonnegative().optional(),
    o: offset,
  })
  .strict();

const ContactSearchState = z
  .object({
    v: z.literal(VALUE_VERSION),
    t: z.literal('cs'),
    w: words,
    ty: z.enum(['client', 'supplier']).optional(),
    o: offset,
  })
  .strict();

/** The id of one share in the app's own record (slack/shares.ts): 16 random bytes, base64url. */
export const SHARE_ID = z.string().regex(/^[A-Za-z0-9_-]{22}$/);

/**
 * "Remove" on a shared message: which share it is. Who may remove it is in the app's record of
 * that share, never in the value.
 */
export const SharedRemoveState = z
  .object({
    v: z.literal(VALUE_VERSION),
    t: z.literal('rm'),
    s: SHARE_ID,
  })
  .strict();

/** A word of a contact question asked in words, as its Try again carries it. */
const sentenceWord = z.string().min(1).max(MAX_WORD);

/**
 * "Try again" on a failed `/stock` or `/contact`: the command and its text (`x`), asked again
 * by whoever presses it (the access rules are checked again then). A contact asked by its
 * account's words with people words (`who does accounts at acme`), which no one command text
 * says, carries those words instead (`w`): the account's (`a`) and the people's (`p`).
 */
const CommandRetryState = z
  .object({
    v: z.literal(VALUE_VERSION),
    t: z.literal('rc'),
    f: z.enum(['stock', 'contact']),
    x: z.string().max(1500).optional(),
    w: z
      .object({
        a: z.array(sentenceWord).min(1).max(6),
        p: z.array(sentenceWord).min(1).max(10),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine(
    (state) =>
      (state.x === undefined) !== (state.w === undefined) &&
      (state.w === undefined || state.f === 'contact'),
    'a command text, or a contact question’s words',
  );

export const ButtonState = z.discriminatedUnion('t', [
  ItemCardState,
  ContactCardState,
  ItemSearchState,
  ContactSearchState,
  SharedRemoveState,
  CommandRetryState,
]);

export type ItemCardState = z.infer<typeof ItemCardState>;
export type ContactCardState = z.infer<typeof ContactCardState>;
type ItemSearchState = z.infer<typeof ItemSearchState>;
type ContactSearchState = z.infer<typeof ContactSearchState>;
export type SharedRemoveState = z.infer<typeof SharedRemoveState>;
export type ButtonState = z.infer<typeof ButtonState>;

export function encodeState(state: ButtonState): string {
  const value = JSON.stringify(state);
  if (value.length > MAX_VALUE_LENGTH) {
    throw new RangeError(`button value of ${value.length} characters exceeds ${MAX_VALUE_LENGTH}`);
  }
  return value;
}

type DecodedState =
  | { ok: true; state: ButtonState }
  | { ok: false; reason: 'too_long' | 'not_json' | 'stale_version' | 'invalid' };

/** Never throws: a forged, stale or huge value becomes `{ ok: false }` with a reason. */
export function decodeState(value: unknown): DecodedState {
  if (typeof value !== 'string') return { ok: false, reason: 'invalid' };
  if (value.length > MAX_VALUE_LENGTH) return { ok: false, reason: 'too_long' };
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return { ok: false, reason: 'not_json' };
  }
  const parsed = ButtonState.safeParse(json);
  if (parsed.success) return { ok: true, state: parsed.data };
  const version = (json as { v?: unknown } | null)?.v;
  return { ok: false, reason: version !== VALUE_VERSION ? 'stale_version' : 'invalid' };
}

/**
 * Button states built from ERP records. A code is the friendliest reference (the cache and
 * the logs know items by code), but the state schema only carries codes of 1 to 100
 * characters: anything else is referred to by its internal id.
 */
export const usableCode = (code: string) => code.length >= 1 && code.length <= MAX_CODE;

export interface ItemStateExtra {
  path?: readonly string[];
  /** The BOM page each item on `path` was left at. */
  pathPages?: readonly number[];
  allBranches?: boolean;
  /** The bill of materials or the kits, shown in place of the branch lines. */
  part?: CardPart;
  /** Page of the all-branches view. */
  branchPage?: number;
  bomPage?: number;
  /** What `/stock CODE [N] [branch]` asked: Refresh and Share keep answering it. */
  question?: CardQuestion;
  /** The thread the card was opened from: Share posts in it. */
  threadTs?: string;
}

export type CardPart = 'bom' | 'kits';

/** The card's mode in a button's state: all branches, the bill of materials or the kits. */
function modeOf(extra: ItemStateExtra): ItemCardState['m'] {
  if (extra.allBranches) return 'a';
  if (extra.part === 'bom') return 'b';
  if (extra.part === 'kits') return 'k';
  return undefined;
}

/** The part a card state shows in place, back in the model's terms. */
export function partOf(state: ItemCardState): CardPart | undefined {
  return state.m === 'b' ? 'bom' : state.m === 'k' ? 'kits' : undefined;
}

/** The question an item card answers first: a quantity, branch words, or both. */
export interface CardQuestion {
  quantity?: number;
  branchWords?: readonly string[];
  /** The plan's option the card answers instead of the plain verdict (a split, or later). */
  option?: PlanChoice;
}

/** The options of a plan a button can ask for as a verdict card of their own. */
export type PlanChoice = 'split' | 'later';
const PLAN_CHOICE = { split: 's', later: 'l' } as const;

/** Branch words a button carries: the few that fit its schema. */
function carriedWords(words: readonly string[] | undefined): string[] {
  return (words ?? [])
    .filter((word) => word.length >= 1 && word.length <= MAX_WORD)
    .slice(0, MAX_WORDS);
}

export function itemState(
  item: { code: string; id: number },
  extra: ItemStateExtra = {},
): ItemCardState {
  const path = extra.path ?? [];
  // Pages only mean something beside their path; all zeros say nothing.
  const pages = (extra.pathPages ?? []).slice(0, path.length);
  const mode = modeOf(extra);
  const branchWords = carriedWords(extra.question?.branchWords);
  return {
    v: VALUE_VERSION,
    t: 'i',
    r: usableCode(item.code) ? { c: item.code } : { i: item.id },
    ...(mode === undefined ? {} : { m: mode }),
    ...(path.length > 0 ? { p: [...path] } : {}),
    ...(pages.some((page) => page > 0) ? { pg: [...pages] } : {}),
    ...(extra.bomPage ? { bp: extra.bomPage } : {}),
    ...(extra.allBranches && extra.branchPage ? { br: extra.branchPage } : {}),
    ...(extra.question?.quantity === undefined ? {} : { q: extra.question.quantity }),
    ...(branchWords.length > 0 ? { b: branchWords } : {}),
    ...(extra.threadTs === undefined ? {} : { th: extra.threadTs }),
    ...(extra.question?.option === undefined ? {} : { o: PLAN_CHOICE[extra.question.option] }),
  };
}

/** The question a card's state carries, back in the model's terms. */
export function questionOf(state: ItemCardState): CardQuestion | undefined {
  if (state.q === undefined && state.b === undefined) return undefined;
  return {
    ...(state.q === undefined ? {} : { quantity: state.q }),
    ...(state.b === undefined ? {} : { branchWords: state.b }),
    ...(state.o === undefined ? {} : { option: state.o === 's' ? 'split' : 'later' }),
  };
}

/** Branch words a button can carry that name `name` as typed: undefined when they do not fit. */
export function branchNameWords(name: string): string[] | undefined {
  const words = name.split(/\s+/).filter(Boolean);
  const carried = carriedWords(words);
  return carried.length === words.length && carried.length > 0 ? carried : undefined;
}

export function contactState(
  contact: { code: string; clientid: number },
  peoplePage?: number,
  peopleWords?: readonly string[],
  allPeople = false,
): ContactCardState {
  const filter = carriedWords(peopleWords);
  return {
    v: VALUE_VERSION,
    t: 'c',
    r: usableCode(contact.code) ? { c: contact.code } : { i: contact.clientid },
    ...(peoplePage ? { pp: peoplePage } : {}),
    ...(allPeople ? { m: 'a' as const } : {}),
    ...(filter.length > 0 ? { pf: filter } : {}),
  };
}

export function itemSearchState(query: ItemQuery, offset: number): ItemSearchState {
  return {
    v: VALUE_VERSION,
    t: 'is',
    w: [...query.words],
    ...(query.category !== undefined ? { cat: query.category } : {}),
    ...(query.supplier !== undefined ? { sup: query.supplier } : {}),
    o: Math.max(0, offset),
  };
}

export function contactSearchState(query: ContactQuery, offset: number): ContactSearchState {
  return {
    v: VALUE_VERSION,
    t: 'cs',
    w: [...query.words],
    ...(query.type !== undefined ? { ty: query.type } : {}),
    o: Math.max(0, offset),
  };
}
