/**
 * Request targets for the ERP, built by hand.
 *
 * We never let `new URL()` resolve a path: WHATWG URL parsing removes `.` and `..` segments
 * (even percent-encoded ones, `%2E%2E`), so a code such as `..` would silently turn
 * `/api/getItem/..` into `/api/`. The origin and the base path come from the configured base
 * URL once; every request path is then plain string concatenation of encoded segments.
 */
import { type ErpEndpoint, InvalidInputError } from './errors.js';

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
