/**
 * Query and path parameters, validated with zod the way a strict ERP would: anything present
 * but malformed is a 400, never silently ignored. Unknown parameters are ignored.
 *
 * Choices where the spec says "not shown" (documented here, switchable where clients must
 * survive both):
 * - `q`: required by default (400 when missing or only separators); `requireQuery: false`
 *   makes an empty `q` match everything the filters allow.
 * - `offset`: defaults to 0.
 * - A parameter given with an empty value (`limit=`) is malformed, except `q` and `debug`.
 * - `target`: absent or `code` matches the code, `id` the internal id; anything else is a 400.
 * - `debug`: present with any value except `0` or `false`.
 */
import { z } from 'zod';

const DEFAULT_SEARCH_LIMIT = 20;
const MAX_SEARCH_LIMIT = 100;

const digits = z
  .string()
  .regex(/^\d{1,9}$/, 'must be a non-negative integer')
  .transform(Number);
const limitSchema = digits.pipe(
  z
    .number()
    .min(1, 'must be at least 1')
    .max(MAX_SEARCH_LIMIT, `must be at most ${MAX_SEARCH_LIMIT}`),
);
const contactTypeSchema = z.enum(['client', 'supplier']);
const targetSchema = z.enum(['code', 'id']);

export class BadParameter extends Error {
  constructor(
    readonly parameter: string,
    problem: string,
  ) {
    super(`Invalid parameter '${parameter}': ${problem}`);
    this.name = 'BadParameter';
  }
}

function parseOptional<T>(
  params: URLSearchParams,
  name: string,
  schema: z.ZodType<T>,
): T | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  const result = schema.safeParse(raw);
  if (!result.success) throw new BadParameter(name, result.error.issues[0]?.message ?? 'invalid');
  return result.data;
}

/** Keywords are separated by `+` or spaces (a literal `+` arrives as `%2B`, a space as `+`). */
function splitKeywords(query: string): string[] {
  return query.split(/[+\s]+/u).filter((keyword) => keyword.length > 0);
}

interface Paging {
  limit: number;
  offset: number;
}

export interface SearchBase extends Paging {
  /** As given (decoded), echoed in the envelope. */
  query: string;
  keywords: string[];
  debug: boolean;
}

export interface ItemSearchQuery extends SearchBase {
  category?: number;
  supplier?: number;
}

export interface ContactSearchQuery extends SearchBase {
  type?: 'client' | 'supplier';
}

function parseSearchBase(params: URLSearchParams, requireQuery: boolean): SearchBase {
  const query = params.get('q') ?? '';
  const keywords = splitKeywords(query);
  if (requireQuery && keywords.length === 0) throw new BadParameter('q', 'is required');
  const debug = params.get('debug');
  return {
    query,
    keywords,
    limit: parseOptional(params, 'limit', limitSchema) ?? DEFAULT_SEARCH_LIMIT,
    offset: parseOptional(params, 'offset', digits) ?? 0,
    debug: debug !== null && debug !== '0' && debug.toLowerCase() !== 'false',
  };
}

export function parseItemSearch(params: URLSearchParams, requireQuery: boolean): ItemSearchQuery {
  return {
    ...parseSearchBase(params, requireQuery),
    category: parseOptional(params, 'category', digits),
    supplier: parseOptional(params, 'supplier', digits),
  };
}

export function parseContactSearch(
  params: URLSearchParams,
  requireQuery: boolean,
): ContactSearchQuery {
  return {
    ...parseSearchBase(params, requireQuery),
    type: parseOptional(params, 'type', contactTypeSchema),
  };
}

export type LookupKey = { code: string } | { id: number };

/** The path value of getItem/getContact, already percent-decoded, and the `target` switch. */
export function parseLookup(value: string, params: URLSearchParams): LookupKey {
  const target = parseOptional(params, 'target', targetSchema) ?? 'code';
  if (value.length === 0) throw new BadParameter('code', 'is required');
  if (target === 'code') return { code: value };
  const id = digits.safeParse(value);
  if (!id.success) throw new BadParameter('id', 'must be an integer when target=id');
  return { id: id.data };
}
