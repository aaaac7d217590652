/**
 * Counters for the upstream economy, on a registry of their own so that tests and several
 * service instances never collide on prom-client's global registry. The app exposes
 * `registry.metrics()` on `GET /metrics`.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export type CacheKind = 'item' | 'contact' | 'item_search' | 'contact_search';

export interface Metrics {
  registry: Registry;
  /** One per upstream attempt; outcome is `ok` or the ErpError code (`erp_server`, ...). */
  upstreamCalls: Counter<'endpoint' | 'outcome'>;
  cache: Counter<'kind' | 'result'>;
  /** Time a call waited in the budget queue before it could be sent. */
  budgetWait: Histogram<'endpoint'>;
  /** 429s received from the ERP (should stay at zero). */
  rateLimited: Counter<'endpoint'>;
  /** Callers turned away with BusyError. */
  busy: Counter<'endpoint'>;
  /** The circuit breaker per endpoint as cockatiel reports it: 0 closed, 1 half-open, 2 open. */
  circuit: Gauge<'endpoint'>;
  /** Readiness (src/ops/readiness.ts): 1 when /readyz would answer 200, else 0. */
  ready: Gauge;
  /** Each readiness check (erp, credentials, redis, slack): 1 passing, 0 failing. */
  readinessCheck: Gauge<'check'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  return {
    registry,
    upstreamCalls: new Counter({
      name: 'erp_upstream_calls_total',
      help: 'Calls made to the ERP, by endpoint and outcome',
      labelNames: ['endpoint', 'outcome'],
      registers: [registry],
    }),
    cache: new Counter({
      name: 'lookup_cache_total',
      help: 'Lookup cache results (hit, miss, stale serve, negative hit)',
      labelNames: ['kind', 'result'],
      registers: [registry],
    }),
    budgetWait: new Histogram({
      name: 'erp_budget_wait_seconds',
      help: 'Time a call waited for rate budget before it was sent to the ERP',
      labelNames: ['endpoint'],
      buckets: [0.005, 0.05, 0.25, 1, 2.5, 5, 10, 20, 30, 45, 60],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'erp_rate_limited_total',
      help: '429 answers received from the ERP',
      labelNames: ['endpoint'],
      registers: [registry],
    }),
    busy: new Counter({
      name: 'lookup_busy_total',
      help: 'Lookups turned away because the budget wait would exceed the bound',
      labelNames: ['endpoint'],
      registers: [registry],
    }),
    circuit: new Gauge({
      name: 'erp_circuit_state',
      help: 'ERP circuit breaker per endpoint: 0 closed, 1 half-open, 2 open',
      labelNames: ['endpoint'],
      registers: [registry],
    }),
    ready: new Gauge({
      name: 'app_ready',
      help: 'Whether this replica is ready to serve (what GET /readyz reports)',
      registers: [registry],
    }),
    readinessCheck: new Gauge({
      name: 'app_readiness_check',
      help: 'Readiness checks by name (erp, credentials, redis, slack): 1 passing, 0 failing',
      labelNames: ['check'],
      registers: [registry],
    }),
  };
}
