/**
 * zod schemas for every ERP payload we read (docs/erp-api.md describes them).
 *
 * - Unknown fields are ignored: `z.object` strips them, so a new ERP version that adds fields
 *   keeps working.
 * - Fields the spec does not describe the shape of (`supplierCodes` elements, the numeric
 *   `status`) are accepted loosely; we never compute with them.
 * - Fields we display or compute with are checked strictly, so drift becomes an
 *   `UnexpectedDataError` carrying the field path instead of a broken card.
 * - Strings the spec says "may be empty" also accept `null` and become `''`.
 *
 * Below them, how an answer becomes a value or an error: the status mapping, Retry-After, a
 * safe snippet of error bodies, and `decodeBody` (validation with drift reporting). Last, the
 * ERP as the rest of the app sees it (`ErpApi`), which the HTTP client implements.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import type { AppLogger } from '../log/logger.js';
import {
  AuthError,
  BadRequestError,
  type ErpEndpoint,
  type ErpError,
  NotFoundError,
  RateLimitedError,
  type SchemaIssue,
  ServerError,
  TenantError,
  UnexpectedDataError,
} from './errors.js';
import { rewriteErrorText, type SecretScrubber, withoutQuotedSource } from './secrets.js';

const num = z.number().finite();
const int = z.number().int();
const maybeEmpty = z
  .string()
  .nullish()
  .transform((value) => value ?? '');
/** The numeric status mapping is not shown by the spec: accept any scalar, never rely on it. */
const looseStatus = z.union([z.number(), z.string()]).nullish();
/** The four stock figures, the same on an item, a branch and a search row. */
const stockFigures = { soh: num, allocated: num, onorder: num, available: num };
/** Another item, as a bill of materials or a kit names it, with its quantity. */
const itemLine = { inventoryId: int, code: z.string(), description: maybeEmpty, qty: num };

export const BranchStockSchema = z.object({
  id: int,
  name: z.string(),
  ...stockFigures,
});
export type BranchStock = z.infer<typeof BranchStockSchema>;

export const BomComponentSchema = z.object({
  ...itemLine,
  cost: num,
  has_bom: z.boolean(),
});
export type BomComponent = z.infer<typeof BomComponentSchema>;

export const KitEntrySchema = z.object({
  ...itemLine,
  auto: z.boolean(),
  groupname: maybeEmpty.optional().transform((value) => value ?? ''),
  group_mode: int.nullish(),
});
export type KitEntry = z.infer<typeof KitEntrySchema>;

export const ItemSchema = z.object({
  id: int,
  status: looseStatus,
  status_label: z.string(),
  code: z.string(),
  category: maybeEmpty,
  description: maybeEmpty,
  cost: num,
  primarysupplier: maybeEmpty,
  /**
   * Element shape not shown by the spec: kept as given (a lone value becomes a one-element
   * list), displayed only when readable. Nothing here can make an item unreadable.
   */
  supplierCodes: z
    .unknown()
    .optional()
    .transform((value): unknown[] =>
      Array.isArray(value) ? value : value === null || value === undefined ? [] : [value],
    ),
  ...stockFigures,
  has_bom: z.boolean(),
  bom: z.array(BomComponentSchema),
  has_kit: z.boolean(),
  kits: z.array(KitEntrySchema),
  branches: z.array(BranchStockSchema),
});
export type Item = z.infer<typeof ItemSchema>;

export const ItemSearchRowSchema = z.object({
  id: int,
  code: z.string(),
  description: maybeEmpty,
  category_name: maybeEmpty,
  price: num,
  supplier_name: maybeEmpty,
  status_label: z.string(),
  ...stockFigures,
  has_bom: z.boolean(),
  has_kit: z.boolean(),
});
export type ItemSearchRow = z.infer<typeof ItemSearchRowSchema>;

export const AddressbookEntrySchema = z.object({
  id: int,
  salutation: maybeEmpty,
  name: maybeEmpty,
  role: maybeEmpty,
  department: maybeEmpty,
  telephone: maybeEmpty,
  mobile: maybeEmpty,
  email: maybeEmpty,
  email2: maybeEmpty,
  status_label: maybeEmpty,
});
export type AddressbookEntry = z.infer<typeof AddressbookEntrySchema>;

export const ContactSchema = z.object({
  clientid: int,
  code: z.string(),
  company: z.string(),
  status: looseStatus,
  status_label: z.string(),
  account_type: z.string(),
  custgroup_label: maybeEmpty,
  /** abn, address4, terms, discount, stopcred: meaning not shown; displayed as given. */
  abn: maybeEmpty,
  address4: maybeEmpty,
  state: maybeEmpty,
  telephone: maybeEmpty,
  email: maybeEmpty,
  salesperson: z.string().nullable(),
  terms: maybeEmpty,
  climit: num,
  discount: num,
  stopcred: num,
  addressbook: z.array(AddressbookEntrySchema),
});
export type Contact = z.infer<typeof ContactSchema>;

/** A search row: the contact's own fields as on the card, and how many people it has. */
export const ContactSearchRowSchema = ContactSchema.pick({
  clientid: true,
  code: true,
  company: true,
  status: true,
  status_label: true,
  account_type: true,
  address4: true,
  state: true,
  telephone: true,
  email: true,
  salesperson: true,
}).extend({ addressbook_count: int.nonnegative() });
export type ContactSearchRow = z.infer<typeof ContactSearchRowSchema>;

const envelope = {
  query: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  count: int.nonnegative(),
  limit: int.nonnegative(),
  offset: int.nonnegative(),
};

export const ItemSearchEnvelopeSchema = z.object({
  ...envelope,
  items: z.array(ItemSearchRowSchema),
});
export type ItemSearchEnvelope = z.infer<typeof ItemSearchEnvelopeSchema>;

export const ContactSearchEnvelopeSchema = z.object({
  ...envelope,
  contacts: z.array(ContactSearchRowSchema),
});
export type ContactSearchEnvelope = z.infer<typeof ContactSearchEnvelopeSchema>;

/**
 * Turning an ERP answer into a value or an error: the status mapping, Retry-After, a safe
 * snippet of error bodies, and schema validation with drift reporting.
 */
const SNIPPET_LENGTH = 200;
const HTTP_DATE_START = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/i;

/**
 * Retry-After is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3). The spec does not
 * say the ERP sends it at all; absent or unreadable gives undefined.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  nowMs: number,
): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // All three HTTP-date forms start with a day name; Date.parse alone would also read "-3"
  // or "1.5" as dates.
  if (!HTTP_DATE_START.test(text)) return undefined;
  // HTTP-dates are always GMT; asctime carries no zone, and Date.parse would take it as local.
  const date = Date.parse(/\b(GMT|UTC)\b/i.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** The start of an error body, secrets removed and whitespace folded; for logs only. */
export function bodySnippet(bytes: Buffer, scrubber: SecretScrubber): string | undefined {
  if (bytes.length === 0) return undefined;
  // Scrub before cutting, so that a secret straddling the cut cannot survive half-way.
  const text = scrubber.scrub(bytes.toString('utf8')).replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  return text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH)}…` : text;
}

interface StatusContext {
  endpoint: ErpEndpoint;
  statusCode: number;
  headers: IncomingHttpHeaders;
  snippet: string | undefined;
  nowMs: number;
}

/** Maps a non-2xx status to its error class; the body never reaches the message. */
export function errorForStatus(context: StatusContext): ErpError {
  const { endpoint, statusCode, snippet } = context;
  const options = { endpoint, statusCode, bodySnippet: snippet };
  const prefix = `ERP ${endpoint}`;
  switch (statusCode) {
    case 404:
      return new NotFoundError(`${prefix}: not found (404)`, options);
    case 400:
      return new BadRequestError(`${prefix}: the ERP refused the parameters (400)`, options);
    case 401:
      return new AuthError(
        `${prefix}: authentication failed (401); check ERP_COMPANY_CODE and ERP_ACCESS_TOKEN`,
        options,
      );
    case 403:
      return new TenantError(`${prefix}: tenant refused (403); check ERP_TENANT_ID`, options);
    case 429: {
      const retryAfterMs = parseRetryAfter(context.headers['retry-after'], context.nowMs);
      const wait = retryAfterMs === undefined ? '' : `; retry after ${retryAfterMs} ms`;
      return new RateLimitedError(`${prefix}: rate limit exceeded (429)${wait}`, {
        ...options,
        retryAfterMs,
      });
    }
    default:
      return new ServerError(
        statusCode >= 500
          ? `${prefix}: the ERP failed (${statusCode})`
          : `${prefix}: unexpected status ${statusCode}`,
        options,
      );
  }
}

/** Field paths as `branches.3.available`; the whole body is `(body)`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(body)' : path.map((key) => String(key)).join('.');
}

const MAX_ISSUES_IN_MESSAGE = 3;

function unexpectedDataMessage(endpoint: ErpEndpoint, issues: readonly SchemaIssue[]): string {
  const shown = issues
    .slice(0, MAX_ISSUES_IN_MESSAGE)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join('; ');
  const more =
    issues.length > MAX_ISSUES_IN_MESSAGE
      ? ` (and ${issues.length - MAX_ISSUES_IN_MESSAGE} more)`
      : '';
  return `ERP returned unexpected data from ${endpoint}: ${shown}${more}`;
}

/**
 * Logs each drifted field once per (endpoint, path), array indices folded to `*` so that one
 * changed field in 40 branches is one warning. Paths only: values may be personal data.
 */
export class DriftReporter {
  private readonly seen = new Set<string>();

  constructor(
    private readonly logger: AppLogger | undefined,
    private readonly maxKeys = 1000,
  ) {}

  report(endpoint: ErpEndpoint, issues: readonly SchemaIssue[]): void {
    for (const issue of issues) {
      const field = issue.path.replace(/(^|\.)\d+(?=\.|$)/g, '$1*');
      const key = `${endpoint} ${field}`;
      if (this.seen.has(key) || this.seen.size >= this.maxKeys) continue;
      this.seen.add(key);
      this.logger?.warn({ endpoint, field, problem: issue.message }, 'ERP schema drift');
    }
  }
}

/** JSON.parse quotes the body in its message: cut the quotation out, then scrub secrets. */
function cleanParseError(error: unknown, scrubber: SecretScrubber): unknown {
  if (error instanceof Error) rewriteErrorText(error, withoutQuotedSource);
  return scrubber.scrubError(error);
}

/**
 * A 2xx body cut short is the ERP's own data (a contact's phone and e-mail among it): no
 * snippet of it is logged, only its path. A body that is not even trying to be JSON (a
 * proxy's HTML error page) is worth a snippet for the admin.
 */
function looksLikeJson(bytes: Buffer): boolean {
  return /^\s*[[{"]/.test(bytes.subarray(0, 64).toString('utf8'));
}

/** JSON then schema; either failure is an `UnexpectedDataError` naming field paths only. */
export function decodeBody<T>(
  endpoint: ErpEndpoint,
  statusCode: number,
  bytes: Buffer,
  schema: z.ZodType<T>,
  scrubber: SecretScrubber,
  drift: DriftReporter,
): T {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    const issues = [{ path: '(body)', message: 'not JSON' }];
    drift.report(endpoint, issues);
    throw new UnexpectedDataError(unexpectedDataMessage(endpoint, issues), {
      endpoint,
      statusCode,
      bodySnippet: looksLikeJson(bytes) ? undefined : bodySnippet(bytes, scrubber),
      issues,
      cause: cleanParseError(error, scrubber),
    });
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: issuePath(issue.path),
    message: issue.message,
  }));
  drift.report(endpoint, issues);
  throw new UnexpectedDataError(unexpectedDataMessage(endpoint, issues), {
    endpoint,
    statusCode,
    issues,
    cause: scrubber.scrubError(result.error),
  });
}

// The ERP as the rest of the app sees it. `ErpClient` (undici, over HTTP) implements it and
// reports what it read (events.ts); tests may hand in any other implementation.

/** An exact lookup: by code (the default) or by internal id (`target=id`). */
export type ErpRef = { code: string } | { id: number };

export interface ItemSearchParams {
  /** Sent joined with `+`; every keyword must match upstream. */
  keywords: readonly string[];
  category?: number;
  supplier?: number;
  /** 1..100; the ERP's default is 20. */
  limit?: number;
  /** Always sent (the spec does not show its default). */
  offset: number;
}

export type ContactType = 'client' | 'supplier';

export interface ContactSearchParams {
  keywords: readonly string[];
  type?: ContactType;
  limit?: number;
  offset: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Made by background work (the catalogue crawl, watch checks): see `ErpEventMap`. */
  background?: boolean;
}

export interface ErpApi {
  /**
   * Identifies the credential (base URL, company code, tenant; never the token) so that every
   * replica using the same credential shares one rate budget.
   */
  readonly credentialKey: string;
  getItem(ref: ErpRef, options?: CallOptions): Promise<Item>;
  getContact(ref: ErpRef, options?: CallOptions): Promise<Contact>;
  searchItems(params: ItemSearchParams, options?: CallOptions): Promise<ItemSearchEnvelope>;
  searchContact(params: ContactSearchParams, options?: CallOptions): Promise<ContactSearchEnvelope>;
}

export function isIdRef(ref: ErpRef): ref is { id: number } {
  return 'id' in ref;
}

/**
 * A credential key as it appears in Redis key names (budget, cache, catalogue): short, and
 * hashed, so no key carries a company code or URL.
 */
export function credentialTag(credentialKey: string): string {
  return createHash('sha256').update(credentialKey).digest('hex').slice(0, 16);
}
