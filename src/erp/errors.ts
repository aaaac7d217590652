/**
 * One error model for every ERP call. Each class carries what a caller needs to decide:
 * whether a retry can help (`retryable`), and who can act on it (`audience`): the user
 * (their input), the admin (configuration) or nobody but the ERP's operators.
 *
 * Messages never contain the access token, the Authorization header or a search query (a
 * contact search may be a person's name): only the endpoint, the status and field paths.
 */
export type ErpEndpoint = 'getItem' | 'getContact' | 'searchItems' | 'searchContact';

export const ERP_ENDPOINTS: readonly ErpEndpoint[] = [
  'getItem',
  'getContact',
  'searchItems',
  'searchContact',
];

type ErpErrorCode =
  | 'erp_not_found'
  | 'erp_bad_request'
  | 'erp_invalid_input'
  | 'erp_auth'
  | 'erp_tenant'
  | 'erp_rate_limited'
  | 'erp_server'
  | 'erp_unavailable'
  | 'erp_unexpected_data';

type ErrorAudience = 'user' | 'admin' | 'operator';

/** For each kind of failure: whether the same request may succeed later, and who can act. */
const KINDS: Readonly<Record<ErpErrorCode, { retryable: boolean; audience: ErrorAudience }>> = {
  erp_not_found: { retryable: false, audience: 'user' },
  erp_bad_request: { retryable: false, audience: 'user' },
  erp_invalid_input: { retryable: false, audience: 'user' },
  erp_auth: { retryable: false, audience: 'admin' },
  erp_tenant: { retryable: false, audience: 'admin' },
  erp_rate_limited: { retryable: true, audience: 'operator' },
  erp_server: { retryable: true, audience: 'operator' },
  // Except an oversized body (see UnavailableError).
  erp_unavailable: { retryable: true, audience: 'operator' },
  erp_unexpected_data: { retryable: false, audience: 'operator' },
};

interface ErpErrorOptions {
  endpoint: ErpEndpoint;
  statusCode?: number;
  /** The start of the ERP's error body, secrets removed; for logs only, never for users. */
  bodySnippet?: string;
  cause?: unknown;
}

export abstract class ErpError extends Error {
  abstract readonly code: ErpErrorCode;
  readonly endpoint: ErpEndpoint;
  readonly statusCode: number | undefined;
  readonly bodySnippet: string | undefined;

  constructor(message: string, options: ErpErrorOptions) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.endpoint = options.endpoint;
    this.statusCode = options.statusCode;
    this.bodySnippet = options.bodySnippet;
  }

  /** True when the same request may succeed later without any change. */
  get retryable(): boolean {
    return KINDS[this.code].retryable;
  }

  get audience(): ErrorAudience {
    return KINDS[this.code].audience;
  }

  /** A log-friendly summary: never includes secrets or personal data. */
  toLogObject(): Record<string, unknown> {
    return {
      code: this.code,
      endpoint: this.endpoint,
      statusCode: this.statusCode,
      retryable: this.retryable,
      message: this.message,
      ...(this.bodySnippet ? { body: this.bodySnippet } : {}),
    };
  }
}

/** 404: the item or contact does not exist. */
export class NotFoundError extends ErpError {
  readonly code = 'erp_not_found';
}

/** 400: the ERP refused our parameters (e.g. a search without keywords). */
export class BadRequestError extends ErpError {
  readonly code = 'erp_bad_request';
}

/** Why the client refused a request itself: the codes the views word. */
type InvalidInputProblem =
  /** A code that is empty once encoded. */
  | 'empty_code'
  /** Text UTF-8 cannot carry (a lone UTF-16 surrogate), in a code or a keyword. */
  | 'not_text'
  /** An id that is not a non-negative whole number. */
  | 'bad_id';

/**
 * Input refused by the client before any request was sent: not a 400, since the ERP never
 * saw it, so no one may be told "the ERP refused". Not retryable; no budget is spent on it.
 */
export class InvalidInputError extends ErpError {
  readonly code = 'erp_invalid_input';
  readonly problem: InvalidInputProblem;

  constructor(message: string, options: ErpErrorOptions & { problem: InvalidInputProblem }) {
    super(message, options);
    this.problem = options.problem;
  }

  override toLogObject(): Record<string, unknown> {
    return { ...super.toLogObject(), problem: this.problem };
  }
}

/** 401: the company code or access token is wrong. */
export class AuthError extends ErpError {
  readonly code = 'erp_auth';
}

/** 403: the tenant id is wrong. */
export class TenantError extends ErpError {
  readonly code = 'erp_tenant';
}

/**
 * 429: over the ERP's rate limit. `retryAfterMs` is set only if the ERP sent Retry-After, and
 * is never longer than MAX_RETRY_AFTER_MS; `askedRetryAfterMs` is what the ERP asked for.
 */
export class RateLimitedError extends ErpError {
  readonly code = 'erp_rate_limited';
  readonly retryAfterMs: number | undefined;
  readonly askedRetryAfterMs: number | undefined;

  constructor(message: string, options: ErpErrorOptions & { retryAfterMs?: number }) {
    super(message, options);
    this.askedRetryAfterMs = options.retryAfterMs;
    this.retryAfterMs =
      options.retryAfterMs === undefined
        ? undefined
        : Math.min(options.retryAfterMs, MAX_RETRY_AFTER_MS);
  }

  /** True when the ERP asked for a longer pause than the app will take. */
  get clamped(): boolean {
    return this.askedRetryAfterMs !== undefined && this.askedRetryAfterMs > MAX_RETRY_AFTER_MS;
  }
}

/**
 * The longest pause a 429 may impose. A gateway's `Retry-After: 999999999` would otherwise
 * stop every lookup for years (and, shared through Redis, on every replica and across
 * restarts); the ledger still never sends more than the limit, so a shorter pause costs at
 * most one more 429.
 */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** 5xx (and any other unexpected status): the ERP failed. */
export class ServerError extends ErpError {
  readonly code = 'erp_server';
}

export type UnavailableReason =
  | 'timeout'
  | 'refused'
  | 'reset'
  | 'dns'
  | 'too_large'
  | 'circuit_open'
  /** More calls waiting for a connection than the client's queue holds (ERP_MAX_CONNECTIONS). */
  | 'queue_full'
  | 'network';

/** No usable answer: connection refused or reset, a timeout, an oversized body, an open breaker. */
export class UnavailableError extends ErpError {
  readonly code = 'erp_unavailable';
  readonly reason: UnavailableReason;

  constructor(message: string, options: ErpErrorOptions & { reason: UnavailableReason }) {
    super(message, options);
    this.reason = options.reason;
  }

  /** An oversized body will be oversized again; everything else may pass later. */
  override get retryable(): boolean {
    return this.reason !== 'too_large';
  }

  override toLogObject(): Record<string, unknown> {
    return { ...super.toLogObject(), reason: this.reason };
  }
}

export interface SchemaIssue {
  /** Dotted path into the response, e.g. `branches.3.available`. */
  path: string;
  message: string;
}

/** The body was not JSON, or did not match the schema: the message names the field paths. */
export class UnexpectedDataError extends ErpError {
  readonly code = 'erp_unexpected_data';
  readonly issues: readonly SchemaIssue[];

  constructor(message: string, options: ErpErrorOptions & { issues?: SchemaIssue[] }) {
    super(message, options);
    this.issues = options.issues ?? [];
  }

  override toLogObject(): Record<string, unknown> {
    return { ...super.toLogObject(), issues: this.issues };
  }
}

export function isErpError(error: unknown): error is ErpError {
  return error instanceof ErpError;
}
