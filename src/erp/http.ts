/**
 * The transport half of the ERP client: one GET over an undici dispatcher, a body read with a
 * size cap, and transport failures sorted into `UnavailableReason`s; and the request targets
 * it is sent to, built by hand (below).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { type BulkheadPolicy, isBulkheadRejectedError } from 'cockatiel';
import { Agent, type Dispatcher } from 'undici';
import { type ErpEndpoint, InvalidInputError, type UnavailableReason } from './errors.js';

export interface RawResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** True when the body was longer than the cap: `body` holds only its first bytes. */
  overCap: boolean;
}

/**
 * The default pool: as many connections as the budget can release at once (60 getItem and 20
 * searches a minute). With fewer, a burst the ledger lets through waits in waves behind the
 * pool: 60 calls of 2 s over 8 sockets take 15 s instead of 2.
 */
export const DEFAULT_ERP_CONNECTIONS = 80;

/** A keep-alive pool per origin with `connections` sockets at most. */
export function createErpAgent(timeoutMs: number, connections = DEFAULT_ERP_CONNECTIONS): Agent {
  return new Agent({
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 30_000,
    connections,
  });
}

/** Thrown when the gate's queue is full; classified as reason `queue_full`. */
export class QueueFullError extends Error {
  readonly code = 'ERP_QUEUE_FULL';
}

/**
 * Runs `task` in one of the gate's slots (a cockatiel bulkhead). A caller whose signal aborts
 * while it waits is rejected at once with the signal's reason, and its task never runs.
 *
 * The signal is deliberately not handed to the bulkhead: cockatiel 3 drops an aborted waiter
 * at its turn without starting the next one, so every waiter behind it would stay queued with
 * a slot free (fixed in cockatiel 4, which needs Node 22). Here the waiter's turn still comes
 * (its task is skipped and the slot passes on at once), so its queue place is only given back
 * then: that matters only when the pool and the queue are both full, where refusing newcomers
 * is the gate's job anyway. The bulkhead also lets a call arriving as a slot frees take it
 * ahead of the longest waiter, which then queues again at the back (or, if the queue filled
 * meanwhile, is refused as `queue_full`). Neither is worth a queue of our own: the ledger in
 * front already orders people fairly, and the gate only queues when the ERP is slow.
 */
export function runGated<T>(
  gate: BulkheadPolicy,
  task: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  const run = gate
    .execute(() => {
      if (signal?.aborted) throw signal.reason;
      return task();
    })
    .catch((error: unknown) => {
      throw isBulkheadRejectedError(error) ? new QueueFullError(error.message) : error;
    });
  if (!signal) return run;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    run.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function declaredLength(headers: IncomingHttpHeaders): number | undefined {
  const value = headers['content-length'];
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/**
 * Reads at most `cap` bytes. Past the cap the stream is destroyed (which also drops the
 * connection), so a huge or endless body costs at most `cap` bytes of memory.
 */
export async function readCapped(
  body: Dispatcher.ResponseData['body'] | Readable,
  cap: number,
): Promise<{ bytes: Buffer; overCap: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += buffer.length;
    if (total > cap) {
      chunks.push(buffer.subarray(0, buffer.length - (total - cap)));
      body.destroy();
      return { bytes: Buffer.concat(chunks), overCap: true };
    }
    chunks.push(buffer);
  }
  return { bytes: Buffer.concat(chunks), overCap: false };
}

const REASON_BY_CODE: Record<string, UnavailableReason> = {
  ERP_QUEUE_FULL: 'queue_full',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  // undici reports a socket closed by the other side mid-response as UND_ERR_SOCKET.
  UND_ERR_SOCKET: 'reset',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NONAME: 'dns',
};

/** Looks through the error, its causes and AggregateError members for a known code. */
export function classifyTransportError(error: unknown): UnavailableReason {
  const pending: unknown[] = [error];
  for (let steps = 0; pending.length > 0 && steps < 16; steps += 1) {
    const current = pending.shift();
    if (typeof current !== 'object' || current === null) continue;
    const { code, cause, errors } = current as {
      code?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && code in REASON_BY_CODE)
      return REASON_BY_CODE[code] ?? 'network';
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return 'network';
}

export const REASON_TEXT: Record<UnavailableReason, string> = {
  timeout: 'timed out',
  refused: 'connection refused',
  reset: 'connection reset',
  dns: 'host name not found',
  too_large: 'response too large',
  circuit_open: 'circuit open',
  queue_full: 'too many calls waiting for a connection',
  network: 'network error',
};

/**
 * Request targets for the ERP, built by hand.
 *
 * We never let `new URL()` resolve a path: WHATWG URL parsing removes `.` and `..` segments
 * (even percent-encoded ones, `%2E%2E`), so a code such as `..` would silently turn
 * `/api/getItem/..` into `/api/`. The origin and the base path come from the configured base
 * URL once; every request path is then plain string concatenation of encoded segments.
 */
export interface ErpBase {
  /** `https://erp.example.com` (scheme, host and port only). */
  origin: string;
  /** The base URL's path prefix, always ending in `/`: `/` or `/v2/`. */
  pathPrefix: string;
}

/** Splits the configured base URL; a query or fragment on it is dropped (never meaningful). */
export function parseErpBase(baseUrl: string): ErpBase {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    throw new Error('The ERP base URL is not a valid URL.', { cause: error });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`The ERP base URL must use http or https, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    // Credentials belong in ERP_COMPANY_CODE / ERP_ACCESS_TOKEN, never in the URL.
    throw new Error('The ERP base URL must not contain a user name or password.');
  }
  const pathPrefix = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return { origin: url.origin, pathPrefix };
}

/**
 * One percent-encoded path segment. `encodeURIComponent` already encodes `/ ? # % +` and
 * non-ASCII text, but leaves `.` alone; a segment made only of dots would be a dot segment
 * that servers and proxies normalise away, so its dots are encoded too.
 */
export function encodePathSegment(value: string, endpoint: ErpEndpoint): string {
  const encoded = encodeText(value, endpoint);
  if (encoded === '') {
    throw new InvalidInputError(`The ${endpoint} code is empty.`, {
      endpoint,
      problem: 'empty_code',
    });
  }
  return /^\.+$/.test(encoded) ? encoded.replaceAll('.', '%2E') : encoded;
}

/** `encodeURIComponent`, with broken text reported as the caller's bad input (not the ERP's). */
function encodeText(value: string, endpoint: ErpEndpoint): string {
  try {
    return encodeURIComponent(value);
  } catch (error) {
    // A lone UTF-16 surrogate cannot be encoded as UTF-8: the input is broken text.
    throw new InvalidInputError(`The ${endpoint} input is not valid text.`, {
      endpoint,
      problem: 'not_text',
      cause: error,
    });
  }
}

export type QueryValue = string | number | undefined;

/**
 * `a=1&b=2` from ordered pairs; undefined values are left out. Values that are already
 * encoded (the `+`-joined keywords) are passed as `{ raw }`.
 */
export function buildQuery(pairs: ReadonlyArray<[string, QueryValue | { raw: string }]>): string {
  const parts: string[] = [];
  for (const [name, value] of pairs) {
    if (value === undefined) continue;
    const encoded = typeof value === 'object' ? value.raw : encodeURIComponent(String(value));
    parts.push(`${name}=${encoded}`);
  }
  return parts.join('&');
}

/**
 * The ERP separates keywords with a literal `+`, so each keyword is encoded on its own (a `+`
 * inside a keyword becomes `%2B`, a space `%20`) and the `+` between them is left bare.
 * Returns undefined when there is no keyword, so that `q` is not sent at all.
 */
export function encodeKeywords(
  keywords: readonly string[],
  endpoint: ErpEndpoint,
): { raw: string } | undefined {
  const present = keywords.filter((keyword) => keyword.length > 0);
  if (present.length === 0) return undefined;
  return { raw: present.map((keyword) => encodeText(keyword, endpoint)).join('+') };
}
