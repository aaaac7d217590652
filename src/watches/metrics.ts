/** The watches' metrics, on the app's registry (`GET /metrics`). */
import { Counter, Gauge, type Registry } from 'prom-client';

export interface WatchMetrics {
  /** Watches by state: armed, past, off. */
  watches: Gauge<'state'>;
  /** Item checks: `round` (the checker fetched it) or `lookup` (a user's lookup counted). */
  checks: Counter<'source' | 'outcome'>;
  /** Alert messages: `posted` (a thread's root), `replied` (in its thread), `updated`, `failed`. */
  alerts: Counter<'result'>;
  /** Daily digests: `sent`, `empty` (nothing past: no message), `late` (skipped), `failed`. */
  digests: Counter<'result'>;
  /** The current interval between two checks of one item. */
  interval: Gauge;
}

export function createWatchMetrics(registry: Registry): WatchMetrics {
  return {
    watches: new Gauge({
      name: 'watches',
      help: 'Stock watches by state (armed, past, off)',
      labelNames: ['state'],
      registers: [registry],
    }),
    checks: new Counter({
      name: 'watch_checks_total',
      help: 'Watched items checked, by source (round, lookup) and outcome',
      labelNames: ['source', 'outcome'],
      registers: [registry],
    }),
    alerts: new Counter({
      name: 'watch_alerts_total',
      help: 'Watch alert messages posted, replied in their thread, updated in place, or failed',
      labelNames: ['result'],
      registers: [registry],
    }),
    digests: new Counter({
      name: 'watch_digests_total',
      help: 'Daily watch digests sent, found empty, skipped as too late, or failed',
      labelNames: ['result'],
      registers: [registry],
    }),
    interval: new Gauge({
      name: 'watch_check_interval_seconds',
      help: 'Current interval between two checks of one watched item',
      registers: [registry],
    }),
  };
}
