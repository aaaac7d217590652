/**
 * Button states built from ERP records. A code is the friendliest reference (the cache and
 * the logs know items by code), but the state schema only carries codes of 1 to 100
 * characters: anything else is referred to by its internal id.
 */
import type { ContactQuery, ItemQuery } from '../lookup/types.js';
import {
  type ContactCardState,
  type ContactSearchState,
  type ItemCardState,
  type ItemSearchState,
  VALUE_VERSION,
} from './actions.js';

const MAX_CODE = 100;
const usableCode = (code: string) => code.length >= 1 && code.length <= MAX_CODE;

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
}

/** Branch words a button carries: the few that fit its schema (5 words of 40 characters). */
function carriedWords(words: readonly string[] | undefined): string[] {
  return (words ?? []).filter((word) => word.length >= 1 && word.length <= 40).slice(0, 5);
}

export function itemState(
  item: { code: string; id: number },
  extra: ItemStateExtra = {},
): ItemCardState {
  const path = extra.path ?? [];
  // Pages only mean something beside their path; all zeros say nothing.
  const pages = (extra.pathPages ?? []).slice(0, path.length);
  const mode = modeOf(extra);
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
    ...(carriedWords(extra.question?.branchWords).length > 0
      ? { b: carriedWords(extra.question?.branchWords) }
      : {}),
    ...(extra.threadTs === undefined ? {} : { th: extra.threadTs }),
  };
}

/** The question a card's state carries, back in the model's terms. */
export function questionOf(state: ItemCardState): CardQuestion | undefined {
  if (state.q === undefined && state.b === undefined) return undefined;
  return {
    ...(state.q === undefined ? {} : { quantity: state.q }),
    ...(state.b === undefined ? {} : { branchWords: state.b }),
  };
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
