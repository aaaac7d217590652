/**
 * The ERP over HTTP (docs/erp-api.md), on undici: the only code that builds ERP URLs, sends
 * the credentials and reads raw ERP JSON. Every failure leaves as an `ErpError` subclass.
 */
import { createHash } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { type BulkheadPolicy, bulkhead } from 'cockatiel';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { type AppLogger, registerSecret } from '../log/logger.js';
import { type ErpEndpoint, ErpError, InvalidInputError, UnavailableError } from './errors.js';
import type { ErpEventMap, ErpEvents } from './events.js';
import {
  buildQuery,
  classifyTransportError,
  createErpAgent,
  DEFAULT_ERP_CONNECTIONS,
  declaredLength,
  type ErpBase,
  encodeKeywords,
  encodePathSegment,
  parseErpBase,
  type QueryValue,
  type RawResponse,
  REASON_TEXT,
  readCapped,
  runGated,
} from './http.js';
import {
  bodySnippet,
  type CallOptions,
  type Contact,
  ContactSchema,
  type ContactSearchEnvelope,
  ContactSearchEnvelopeSchema,
  type ContactSearchParams,
  DriftReporter,
  decodeBody,
  type ErpApi,
  type ErpRef,
  errorForStatus,
  type Item,
  ItemSchema,
  type ItemSearchEnvelope,
  ItemSearchEnvelopeSchema,
  type ItemSearchParams,
  isIdRef,
} from './schemas.js';
import { SecretScrubber } from './secrets.js';

/** One `name=value` of a search's query string (left out when the value is undefined). */
type QueryPair = [string, QueryValue];

export interface ErpClientOptions {
  /** The ERP's base address; a path prefix (`https://erp.example.com/v2/`) is kept. */
  baseUrl: string;
  /** Basic-auth user name. */
  companyCode: string;
  /** Basic-auth password; registered as a log secret and scrubbed from every error. */
  accessToken: string;
  /** Sent as the `Tenantid` header. */
  tenantId: string;
  /**
   * Connect, response-headers and body-idle timeouts, each (not a total deadline: pass an
   * AbortSignal in `CallOptions` for that). Default 8000 ms.
   */
  timeoutMs?: number;
  /**
   * Connections of the client's own pool, and so calls in flight at once; as many calls again
   * may wait for one, past that a call fails (reason `queue_full`). Default 80: everything the
   * ERP's default budget (60 getItem + 20 searches a minute) can release at once.
   */
  maxConnections?: number;
  /** Largest accepted success body; past it the call fails with reason `too_large`. Default 5 MiB. */
  maxResponseBytes?: number;
  /**
   * The transport. Default: the client's own keep-alive undici Agent, closed by `close()`.
   * An injected dispatcher belongs to the caller and is left open; its connect timeout is its
   * own, the headers and body timeouts are applied per request.
   */
  dispatcher?: Dispatcher;
  /** Receives schema-drift warnings and per-call debug lines. */
  logger?: AppLogger;
  /** The clock for Retry-After HTTP-dates. Default `Date.now`. */
  now?: () => number;
  /** Where the client reports what it read and how each call ended (the composition root listens). */
  events?: ErpEvents;
}

const DEFAULT_TIMEOUT_MS = 8000;
const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** Error bodies are only kept as a 200-character snippet: no point reading megabytes. */
const ERROR_BODY_CAP = 16 * 1024;

export class ErpClient implements ErpApi {
  readonly credentialKey: string;
  private readonly base: ErpBase;
  // `#` fields stay out of util.inspect and JSON.stringify: the client may end up in a log.
  readonly #headers: Record<string, string>;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  /**
   * The bounded queue in front of the pool: at most one call per connection runs, as many
   * wait; past that a call fails at once (`queue_full`) instead of piling up in undici's
   * unbounded queue behind an ERP that stopped answering.
   */
  private readonly gate: BulkheadPolicy;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  readonly #scrubber: SecretScrubber;
  private readonly drift: DriftReporter;
  private readonly logger: AppLogger | undefined;
  private readonly now: () => number;
  private readonly events: ErpEvents | undefined;

  constructor(options: ErpClientOptions) {
    this.base = parseErpBase(options.baseUrl);
    this.timeoutMs = positive('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.maxResponseBytes = positive(
      'maxResponseBytes',
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    );
    const credentials = Buffer.from(`${options.companyCode}:${options.accessToken}`).toString(
      'base64',
    );
    registerSecret(options.accessToken);
    registerSecret(credentials);
    this.#scrubber = new SecretScrubber([options.accessToken, credentials]);
    // Exactly the spec's three headers: never `Xmlresponse` (we read JSON only) nor `debug`.
    this.#headers = {
      accept: 'application/json',
      tenantid: options.tenantId,
      authorization: `Basic ${credentials}`,
    };
    this.credentialKey = credentialKeyFor(this.base, options.companyCode, options.tenantId);
    this.ownsDispatcher = options.dispatcher === undefined;
    const connections = positive(
      'maxConnections',
      options.maxConnections ?? DEFAULT_ERP_CONNECTIONS,
    );
    this.dispatcher = options.dispatcher ?? createErpAgent(this.timeoutMs, connections);
    this.gate = bulkhead(connections, connections);
    this.logger = options.logger?.child({ component: 'erp' });
    this.drift = new DriftReporter(this.logger);
    this.now = options.now ?? Date.now;
    this.events = options.events;
  }

  // The methods are async so that bad input (an unencodable code, a negative id) rejects like
  // every other failure instead of throwing synchronously.
  async getItem(ref: ErpRef, options?: CallOptions): Promise<Item> {
    const item = await this.reported('getItem', () =>
      this.call('getItem', this.lookupPath('getItem', ref), ItemSchema, options),
    );
    this.emit('itemRead', { item, background: options?.background === true });
    return item;
  }

  async getContact(ref: ErpRef, options?: CallOptions): Promise<Contact> {
    const contact = await this.reported('getContact', () =>
      this.call('getContact', this.lookupPath('getContact', ref), ContactSchema, options),
    );
    this.emit('contactRead', { contact, background: options?.background === true });
    return contact;
  }

  async searchItems(params: ItemSearchParams, options?: CallOptions): Promise<ItemSearchEnvelope> {
    const filters: QueryPair[] = [
      ['category', params.category],
      ['supplier', params.supplier],
    ];
    const envelope = await this.reported('searchItems', () =>
      this.search('searchItems', params, filters, ItemSearchEnvelopeSchema, options),
    );
    const background = options?.background === true;
    this.emit('itemRowsRead', { rows: envelope.items, params, background });
    return envelope;
  }

  async searchContact(
    params: ContactSearchParams,
    options?: CallOptions,
  ): Promise<ContactSearchEnvelope> {
    const filters: QueryPair[] = [['type', params.type]];
    return this.reported('searchContact', () =>
      this.search('searchContact', params, filters, ContactSearchEnvelopeSchema, options),
    );
  }

  /** Runs one call and reports how it ended (`callEnded`), whatever the outcome. */
  private async reported<T>(endpoint: ErpEndpoint, run: () => Promise<T>): Promise<T> {
    let value: T;
    try {
      value = await run();
    } catch (error) {
      this.emit('callEnded', { endpoint, error });
      throw error;
    }
    this.emit('callEnded', { endpoint });
    return value;
  }

  /** A listener's failure is the listener's: logged, never the call's. */
  private emit<K extends keyof ErpEventMap>(name: K, ...event: ErpEventMap[K]): void {
    try {
      // The map typed the arguments already; TypeScript cannot follow `K` through `emit`.
      (this.events as EventEmitter | undefined)?.emit(name, ...event);
    } catch (error) {
      this.logger?.warn({ event: name, err: errorName(error) }, 'an ERP event listener failed');
    }
  }

  /** One search: keywords, the endpoint's filters, then paging, in the spec's order. */
  private search<T>(
    endpoint: 'searchItems' | 'searchContact',
    params: { keywords: readonly string[]; limit?: number; offset: number },
    filters: readonly QueryPair[],
    schema: z.ZodType<T>,
    options: CallOptions | undefined,
  ): Promise<T> {
    const query = buildQuery([
      ['q', encodeKeywords(params.keywords, endpoint)],
      ...filters,
      ['limit', params.limit],
      ['offset', params.offset],
    ]);
    return this.call(endpoint, this.searchPath(endpoint, query), schema, options);
  }

  /** Closes the client's own connection pool; an injected dispatcher is left to its owner. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private lookupPath(endpoint: 'getItem' | 'getContact', ref: ErpRef): string {
    const prefix = `${this.base.pathPrefix}api/${endpoint}/`;
    if (!isIdRef(ref)) return prefix + encodePathSegment(ref.code, endpoint);
    if (!Number.isSafeInteger(ref.id) || ref.id < 0) {
      throw new InvalidInputError(`ERP ${endpoint}: an id must be a non-negative integer`, {
        endpoint,
        problem: 'bad_id',
      });
    }
    return `${prefix}${ref.id}?target=id`;
  }

  private searchPath(endpoint: 'searchItems' | 'searchContact', query: string): string {
    // `offset` is always present, so the query string is never empty.
    return `${this.base.pathPrefix}api/${endpoint}?${query}`;
  }

  private async call<T>(
    endpoint: ErpEndpoint,
    path: string,
    schema: z.ZodType<T>,
    options: CallOptions | undefined,
  ): Promise<T> {
    const started = this.now();
    const response = await this.send(endpoint, path, options?.signal);
    this.logger?.debug(
      { endpoint, statusCode: response.statusCode, ms: this.now() - started },
      'ERP call',
    );
    if (response.statusCode >= 200 && response.statusCode < 300) {
      return decodeBody(
        endpoint,
        response.statusCode,
        response.body,
        schema,
        this.#scrubber,
        this.drift,
      );
    }
    throw errorForStatus({
      endpoint,
      statusCode: response.statusCode,
      headers: response.headers,
      snippet: bodySnippet(response.body, this.#scrubber),
      nowMs: this.now(),
    });
  }

  /** One GET and its (capped) body; transport failures become `UnavailableError`. */
  private async send(
    endpoint: ErpEndpoint,
    path: string,
    signal: AbortSignal | undefined,
  ): Promise<RawResponse> {
    try {
      return await runGated(this.gate, () => this.exchange(endpoint, path, signal), signal);
    } catch (error) {
      if (error instanceof ErpError) throw error;
      // The caller gave up (deadline, user left): theirs to interpret, not an ERP failure.
      if (signal?.aborted) throw signal.reason;
      const reason = classifyTransportError(error);
      throw new UnavailableError(`ERP ${endpoint}: ${REASON_TEXT[reason]}`, {
        endpoint,
        reason,
        cause: this.#scrubber.scrubError(error),
      });
    }
  }

  /** The request itself, holding one of the gate's slots until its body is read. */
  private async exchange(
    endpoint: ErpEndpoint,
    path: string,
    signal: AbortSignal | undefined,
  ): Promise<RawResponse> {
    const response = await this.dispatcher.request({
      origin: this.base.origin,
      path,
      method: 'GET',
      headers: this.#headers,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      signal,
    });
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    const cap = ok ? this.maxResponseBytes : ERROR_BODY_CAP;
    if (ok && (declaredLength(response.headers) ?? 0) > cap) {
      // Refuse up front rather than read megabytes we would throw away.
      response.body.destroy();
      throw this.tooLarge(endpoint, response.statusCode);
    }
    const { bytes, overCap } = await readCapped(response.body, cap);
    if (ok && overCap) throw this.tooLarge(endpoint, response.statusCode);
    return { statusCode: response.statusCode, headers: response.headers, body: bytes, overCap };
  }

  private tooLarge(endpoint: ErpEndpoint, statusCode: number): UnavailableError {
    return new UnavailableError(
      `ERP ${endpoint}: ${REASON_TEXT.too_large} (over ${this.maxResponseBytes} bytes)`,
      { endpoint, statusCode, reason: 'too_large' },
    );
  }
}

/** Same ERP, company and tenant give the same key on every replica; the token is not in it. */
function credentialKeyFor(base: ErpBase, companyCode: string, tenantId: string): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([base.origin, base.pathPrefix, companyCode, tenantId]))
    .digest('hex');
  return `erp:${digest.slice(0, 32)}`;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`ErpClient option ${name} must be a positive number, got ${value}`);
  }
  return value;
}
