/**
 * The two searches, as the spec describes them.
 *
 * Items: every keyword must occur (case-insensitive substring) in the code or the description;
 * ranked exact code match, then code prefix, then the rest (description or mid-code matches);
 * ties by code, then id, so pages are stable.
 *
 * Contacts ("fuzzy multi-keyword matching against company name, contact first/last name, code
 * and trading name"): the sandbox's reading of "fuzzy" is case- and accent-insensitive
 * substring matching; every keyword must occur in at least one of those fields. Ranked exact
 * code, code prefix, company or trading name prefix, the rest; ties by company, then code.
 * `type=client` keeps Customer and Customer & Supplier; `type=supplier` keeps Supplier and
 * Customer & Supplier.
 */
import type { ContactSearchQuery, ItemSearchQuery } from './params.js';
import type { SandboxContact, SandboxItem } from './types.js';

interface Ranked<T> {
  entry: T;
  rank: number;
}

interface SearchOutcome<T> {
  total: number;
  page: T[];
  /** How many matches fell in each rank (for the debug output). */
  ranks: number[];
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

interface ItemHaystack {
  item: SandboxItem;
  code: string;
  description: string;
}

interface ContactHaystack {
  contact: SandboxContact;
  code: string;
  names: string[];
  company: string;
  tradingName: string;
}

export class SearchIndex {
  private readonly items: ItemHaystack[];
  private readonly contacts: ContactHaystack[];

  constructor(items: readonly SandboxItem[], contacts: readonly SandboxContact[]) {
    this.items = items.map((item) => ({
      item,
      code: item.record.code.toLowerCase(),
      description: item.record.description.toLowerCase(),
    }));
    this.contacts = contacts.map((contact) => ({
      contact,
      code: fold(contact.record.code),
      company: fold(contact.record.company),
      tradingName: fold(contact.tradingName),
      names: [
        fold(contact.record.company),
        fold(contact.tradingName),
        fold(contact.record.code),
        ...contact.record.addressbook.map((person) => fold(person.name)),
      ],
    }));
  }

  searchItems(query: ItemSearchQuery): SearchOutcome<SandboxItem> {
    const keywords = query.keywords.map((keyword) => keyword.toLowerCase());
    const whole = query.query.trim().toLowerCase();
    const ranked: Ranked<SandboxItem>[] = [];
    for (const hay of this.items) {
      if (query.category !== undefined && hay.item.categoryId !== query.category) continue;
      if (query.supplier !== undefined && hay.item.supplierId !== query.supplier) continue;
      const matches = keywords.every((k) => hay.code.includes(k) || hay.description.includes(k));
      if (!matches) continue;
      const exact = hay.code === whole || keywords.some((k) => hay.code === k);
      const prefix = keywords.some((k) => hay.code.startsWith(k));
      ranked.push({ entry: hay.item, rank: exact ? 0 : prefix ? 1 : 2 });
    }
    ranked.sort(
      (a, b) =>
        a.rank - b.rank ||
        compare(a.entry.record.code, b.entry.record.code) ||
        a.entry.record.id - b.entry.record.id,
    );
    return paginate(ranked, query, 3);
  }

  searchContacts(query: ContactSearchQuery): SearchOutcome<SandboxContact> {
    const keywords = query.keywords.map(fold);
    const whole = fold(query.query.trim());
    const ranked: Ranked<SandboxContact>[] = [];
    for (const hay of this.contacts) {
      if (query.type !== undefined && !hasType(hay.contact, query.type)) continue;
      if (!keywords.every((k) => hay.names.some((name) => name.includes(k)))) continue;
      const exact = hay.code === whole || keywords.some((k) => hay.code === k);
      const prefix = keywords.some((k) => hay.code.startsWith(k));
      const namePrefix = keywords.some(
        (k) => hay.company.startsWith(k) || hay.tradingName.startsWith(k),
      );
      ranked.push({ entry: hay.contact, rank: exact ? 0 : prefix ? 1 : namePrefix ? 2 : 3 });
    }
    ranked.sort(
      (a, b) =>
        a.rank - b.rank ||
        compare(a.entry.record.company, b.entry.record.company) ||
        compare(a.entry.record.code, b.entry.record.code),
    );
    return paginate(ranked, query, 4);
  }
}

function hasType(contact: SandboxContact, type: 'client' | 'supplier'): boolean {
  const accountType = contact.record.account_type;
  if (accountType === 'Customer & Supplier') return true;
  return type === 'client' ? accountType === 'Customer' : accountType === 'Supplier';
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function paginate<T>(
  ranked: Ranked<T>[],
  paging: { limit: number; offset: number },
  rankCount: number,
): SearchOutcome<T> {
  const ranks = Array.from({ length: rankCount }, () => 0);
  for (const { rank } of ranked) ranks[rank] = (ranks[rank] ?? 0) + 1;
  return {
    total: ranked.length,
    page: ranked.slice(paging.offset, paging.offset + paging.limit).map(({ entry }) => entry),
    ranks,
  };
}
