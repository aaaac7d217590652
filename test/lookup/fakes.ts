/**
 * An in-test ERP: counts calls, answers from a small table, and lets a test script failures
 * (`failWith`) or hold answers (`hold`) to exercise coalescing, retries and the budget.
 */

import { type ErpEndpoint, NotFoundError } from '../../src/erp/errors.js';
import {
  type CallOptions,
  type Contact,
  type ContactSearchEnvelope,
  type ContactSearchParams,
  type ErpApi,
  type ErpRef,
  type Item,
  type ItemSearchEnvelope,
  type ItemSearchParams,
  type ItemSearchRow,
  isIdRef,
} from '../../src/erp/schemas.js';
import { createLogger } from '../../src/log/logger.js';
import { createMetrics, type Metrics } from '../../src/lookup/metrics.js';
import { createLookupService, type StandaloneLookupOptions } from '../../src/lookup/service.js';
import type { LookupService } from '../../src/lookup/types.js';

export function makeItem(overrides: Partial<Item> = {}): Item {
  return {
    id: 1,
    status: 1,
    status_label: 'Active',
    code: 'WIDGET-1',
    category: 'Widgets',
    description: 'A widget',
    cost: 10,
    primarysupplier: 'Acme Supply',
    supplierCodes: [],
    soh: 5,
    allocated: 1,
    onorder: 0,
    available: 4,
    has_bom: false,
    bom: [],
    has_kit: false,
    kits: [],
    branches: [{ id: 1, name: 'Main', soh: 5, allocated: 1, onorder: 0, available: 4 }],
    ...overrides,
  };
}

export function makeContact(overrides: Partial<Contact> = {}): Contact {
  return {
    clientid: 7,
    code: 'ACME01',
    company: 'Acme Pty Ltd',
    status: 1,
    status_label: 'Active',
    account_type: 'Customer',
    custgroup_label: 'General',
    abn: '',
    address4: '',
    state: 'NSW',
    telephone: '02 9999 0000',
    email: 'sales@acme.example',
    salesperson: null,
    terms: '30 days',
    climit: 1000,
    discount: 0,
    stopcred: 0,
    addressbook: [],
    ...overrides,
  };
}

export function makeRow(index: number): ItemSearchRow {
  return {
    id: index + 1,
    code: `ROW-${index}`,
    description: `Row ${index}`,
    category_name: 'Widgets',
    price: 1,
    supplier_name: 'Acme',
    status_label: 'Active',
    soh: 1,
    allocated: 0,
    onorder: 0,
    available: 1,
    has_bom: false,
    has_kit: false,
  };
}

/** Item codes are `CODE-<n>` with id n; anything else is a 404. */
function itemFor(ref: ErpRef): Item {
  const id = isIdRef(ref) ? ref.id : Number(/^CODE-(\d+)$/.exec(ref.code)?.[1] ?? Number.NaN);
  if (!Number.isInteger(id))
    throw new NotFoundError('Item not found', { endpoint: 'getItem', statusCode: 404 });
  return makeItem({ id, code: `CODE-${id}` });
}

export interface Call {
  endpoint: ErpEndpoint;
  at: number;
  args: unknown;
  /** The AbortSignal the call was given (the lookup layer's timeout aborts it). */
  signal: AbortSignal | undefined;
}

export class FakeErp implements ErpApi {
  readonly credentialKey: string;
  readonly calls: Call[] = [];
  /** Errors thrown by the next calls of an endpoint, in order. */
  private readonly failures = new Map<ErpEndpoint, unknown[]>();
  /** While set, calls wait on this promise before answering. */
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;
  /** Rows the search endpoints page through. */
  searchRows: ItemSearchRow[] = Array.from({ length: 120 }, (_, i) => makeRow(i));
  countMeaning: 'total' | 'page' = 'total';
  /** Fails every call with this error while set. */
  down: unknown;
  latencyMs = 0;

  constructor(credentialKey = 'fake|ACME|tenant-1') {
    this.credentialKey = credentialKey;
  }

  count(endpoint?: ErpEndpoint): number {
    return endpoint
      ? this.calls.filter((call) => call.endpoint === endpoint).length
      : this.calls.length;
  }

  failWith(endpoint: ErpEndpoint, ...errors: unknown[]): void {
    this.failures.set(endpoint, [...(this.failures.get(endpoint) ?? []), ...errors]);
  }

  hold(): void {
    this.gate = new Promise((resolve) => {
      this.openGate = resolve;
    });
  }

  release(): void {
    this.openGate?.();
    this.gate = undefined;
  }

  async getItem(ref: ErpRef, options?: CallOptions): Promise<Item> {
    await this.enter('getItem', ref, options);
    return itemFor(ref);
  }

  async getContact(ref: ErpRef, options?: CallOptions): Promise<Contact> {
    await this.enter('getContact', ref, options);
    if (isIdRef(ref) ? ref.id !== 7 : ref.code !== 'ACME01') {
      throw new NotFoundError('Contact not found', { endpoint: 'getContact', statusCode: 404 });
    }
    return makeContact();
  }

  async searchItems(params: ItemSearchParams, options?: CallOptions): Promise<ItemSearchEnvelope> {
    await this.enter('searchItems', params, options);
    const rows = this.searchRows.slice(params.offset, params.offset + (params.limit ?? 20));
    const count = this.countMeaning === 'total' ? this.searchRows.length : rows.length;
    return {
      query: params.keywords.join('+'),
      count,
      limit: params.limit ?? 20,
      offset: params.offset,
      items: rows,
    };
  }

  async searchContact(
    params: ContactSearchParams,
    options?: CallOptions,
  ): Promise<ContactSearchEnvelope> {
    await this.enter('searchContact', params, options);
    return {
      query: params.keywords.join('+'),
      count: 0,
      limit: params.limit ?? 20,
      offset: params.offset,
      contacts: [],
    };
  }

  private async enter(endpoint: ErpEndpoint, args: unknown, options?: CallOptions): Promise<void> {
    this.calls.push({ endpoint, at: Date.now(), args, signal: options?.signal });
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    if (this.gate) await this.gate;
    const scripted = this.failures.get(endpoint)?.shift();
    if (scripted) throw scripted;
    if (this.down) throw this.down;
  }
}

export const silentLogger = createLogger({ level: 'silent' });

export interface Harness {
  erp: FakeErp;
  service: LookupService;
  metrics: Metrics;
}

export function makeService(
  overrides: Partial<StandaloneLookupOptions> = {},
  erp: FakeErp = new FakeErp(),
): Harness {
  const metrics = overrides.metrics ?? createMetrics();
  const service = createLookupService({
    erp,
    ttlMs: 60_000,
    contactTtlMs: 30_000,
    maxBytes: 8 * 1024 * 1024,
    limits: { getPerMinute: 60, searchPerMinute: 20 },
    // The configuration's default (QUEUE_MAX_WAIT_SECONDS): the ERP's window.
    queueMaxWaitMs: 60_000,
    logger: silentLogger,
    metrics,
    ...overrides,
  });
  return { erp, service, metrics };
}

/** The value of one labelled counter in a metrics registry. */
export async function counterValue(
  metrics: Metrics,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const value = metric?.values.find((v) =>
    Object.entries(labels).every(([key, expected]) => v.labels[key] === expected),
  );
  return Number(value?.value ?? 0);
}

/** Most calls in any `windowMs` span (what a sliding limiter upstream would count). */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= windowMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
