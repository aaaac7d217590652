/**
 * Turning an ERP answer into a value or an error: the status mapping, Retry-After, a safe
 * snippet of error bodies, and schema validation with drift reporting.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
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
