/**
 * Items and contacts described once. Everything that differs between them lives here: the
 * ERP endpoints, the zod schemas, the cache kind and lifetime, how a query becomes a cache
 * key and an upstream call, and the noun the views use for wording (not found, working
 * lines). The service (service.ts) and the Slack answers are generic over these.
 */
import { z } from 'zod';
import type { ErpEndpoint } from '../erp/errors.js';
import {
  type CallOptions,
  type Contact,
  ContactSchema,
  type ContactSearchRow,
  ContactSearchRowSchema,
  type ContactType,
  type ErpApi,
  type ErpRef,
  type Item,
  ItemSchema,
  type ItemSearchRow,
  ItemSearchRowSchema,
  isIdRef,
} from '../erp/schemas.js';
import type { CacheKind } from './metrics.js';
import type { SearchWindow } from './paging.js';
import { type ContactQuery, InputError, type ItemQuery, SEARCH_WINDOW_SIZE } from './types.js';

/** Which lifetime applies: contacts hold personal data and are kept for less time. */
export type LifetimeKind = 'items' | 'contacts';
/** The word the views use for one record of this resource. */
type Noun = 'item' | 'contact';

export interface RecordResource<T> {
  noun: Noun;
  kind: CacheKind;
  endpoint: ErpEndpoint;
  lifetime: LifetimeKind;
  schema: z.ZodType<T>;
  get(erp: ErpApi, ref: ErpRef, options?: CallOptions): Promise<T>;
  /** Every ref the same record is known under (fetched by id, it is also its code). */
  refs(record: T): ErpRef[];
}

/** Filters by name; their order never matters to the key. */
type Filters = Readonly<Record<string, string | number | undefined>>;

export interface SearchResource<Q extends { words: readonly string[] }, Row> {
  noun: Noun;
  kind: CacheKind;
  endpoint: ErpEndpoint;
  lifetime: LifetimeKind;
  rowSchema: z.ZodType<Row>;
  /** A search for these words and no filters (a code that was not found, searched for). */
  fromWords(words: string[]): Q;
  filters(query: Q): Filters;
  /** One upstream window of rows, for a normalised query. */
  search(erp: ErpApi, query: Q, offset: number, options?: CallOptions): Promise<SearchWindow<Row>>;
}

interface Resource<T, Q extends { words: readonly string[] }, Row> {
  record: RecordResource<T>;
  search: SearchResource<Q, Row>;
}

export const ITEMS: Resource<Item, ItemQuery, ItemSearchRow> = {
  record: {
    noun: 'item',
    kind: 'item',
    endpoint: 'getItem',
    lifetime: 'items',
    schema: ItemSchema,
    get: (erp, ref, options) => erp.getItem(ref, options),
    refs: (item) => [{ id: item.id }, { code: item.code }],
  },
  search: {
    noun: 'item',
    kind: 'item_search',
    endpoint: 'searchItems',
    lifetime: 'items',
    rowSchema: ItemSearchRowSchema,
    fromWords: (words) => ({ words }),
    filters: (query) => ({ category: query.category, supplier: query.supplier }),
    search: async (erp, query, offset, options) => {
      const envelope = await erp.searchItems(
        {
          keywords: query.words,
          category: query.category,
          supplier: query.supplier,
          limit: SEARCH_WINDOW_SIZE,
          offset,
        },
        options,
      );
      return { rows: envelope.items, count: envelope.count };
    },
  },
};

export const CONTACTS: Resource<Contact, ContactQuery, ContactSearchRow> = {
  record: {
    noun: 'contact',
    kind: 'contact',
    endpoint: 'getContact',
    lifetime: 'contacts',
    schema: ContactSchema,
    get: (erp, ref, options) => erp.getContact(ref, options),
    refs: (contact) => [{ id: contact.clientid }, { code: contact.code }],
  },
  search: {
    noun: 'contact',
    kind: 'contact_search',
    endpoint: 'searchContact',
    lifetime: 'contacts',
    rowSchema: ContactSearchRowSchema,
    fromWords: (words) => ({ words }),
    filters: (query) => ({ type: query.type }),
    search: async (erp, query, offset, options) => {
      const envelope = await erp.searchContact(
        {
          keywords: query.words,
          type: query.type satisfies ContactType | undefined,
          limit: SEARCH_WINDOW_SIZE,
          offset,
        },
        options,
      );
      return { rows: envelope.contacts, count: envelope.count };
    },
  },
};

/**
 * Cache keys: equivalent requests must share one entry, and only what is provably equivalent
 * is merged. Codes are kept exactly as given (the ERP's code matching may be case-sensitive);
 * ids are numbers.
 */
export function recordKey(resource: RecordResource<unknown>, ref: ErpRef): string {
  return isIdRef(ref)
    ? `${resource.noun}|id:${Number(ref.id)}`
    : `${resource.noun}|code:${ref.code}`;
}

/** Keywords as sent upstream: split on whitespace, lower-cased, empty ones dropped, order kept. */
export function normaliseWords(words: readonly string[]): string[] {
  return words.flatMap((word) => word.trim().toLowerCase().split(/\s+/)).filter(Boolean);
}

/**
 * The query as sent upstream and its cache key (filters by name, so their order never
 * matters). A search with neither keywords nor filters would list the whole catalogue (or be
 * refused: the spec does not say whether `q` is required), so it is never sent.
 */
export function normaliseSearch<Q extends { words: readonly string[] }>(
  resource: SearchResource<Q, unknown>,
  query: Q,
  windowOffset: number,
): { query: Q; key: string } {
  const words = normaliseWords(query.words);
  const filters = Object.entries(resource.filters(query)).sort(([a], [b]) => a.localeCompare(b));
  if (words.length === 0 && filters.every(([, value]) => value === undefined)) {
    throw new InputError('empty_search', resource.endpoint);
  }
  const filterKey = filters.map(([name, value]) => `|${name}:${value ?? ''}`).join('');
  return {
    query: { ...query, words },
    key: `${resource.kind}|q:${words.join(' ')}${filterKey}|at:${windowOffset}`,
  };
}

/** A lookup ref the ERP could answer: a non-empty code or a positive whole id. */
export function checkRef(resource: RecordResource<unknown>, ref: ErpRef): void {
  const valid = isIdRef(ref)
    ? Number.isSafeInteger(ref.id) && ref.id > 0
    : typeof ref.code === 'string' && ref.code.length > 0;
  if (!valid) throw new InputError('bad_ref', resource.endpoint);
}

const windowSchemas = new WeakMap<z.ZodType, z.ZodType<SearchWindow<unknown>>>();

/** One compiled schema per row schema: zod compiles an object's parser on its first parse. */
export function windowSchema<Row>(row: z.ZodType<Row>): z.ZodType<SearchWindow<Row>> {
  let schema = windowSchemas.get(row);
  if (!schema) {
    schema = z.object({ rows: z.array(row), count: z.number().int().nonnegative() });
    windowSchemas.set(row, schema);
  }
  // The map is keyed by `row`, so the schema stored for it parses rows of this type.
  return schema as z.ZodType<SearchWindow<Row>>;
}
