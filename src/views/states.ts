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

export function itemState(
  item: { code: string; id: number },
  extra: { path?: readonly string[]; allBranches?: boolean; bomPage?: number } = {},
): ItemCardState {
  return {
    v: VALUE_VERSION,
    t: 'i',
    r: usableCode(item.code) ? { c: item.code } : { i: item.id },
    ...(extra.allBranches ? { m: 'a' as const } : {}),
    ...(extra.path && extra.path.length > 0 ? { p: [...extra.path] } : {}),
    ...(extra.bomPage ? { bp: extra.bomPage } : {}),
  };
}

export function contactState(
  contact: { code: string; clientid: number },
  peoplePage?: number,
): ContactCardState {
  return {
    v: VALUE_VERSION,
    t: 'c',
    r: usableCode(contact.code) ? { c: contact.code } : { i: contact.clientid },
    ...(peoplePage ? { pp: peoplePage } : {}),
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
