/**
 * `GET /healthz` (liveness), `GET /readyz` (readiness) and `GET /metrics`, served on PORT in
 * every mode (Bolt's custom routes: by the HTTP receiver in HTTP mode, by the receiver's own
 * small HTTP server in Socket Mode), each on its exact path only: Bolt matches custom routes
 * ignoring case and a trailing slash, so `/METRICS` and `/healthz/` are answered 404 here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import type { Registry } from 'prom-client';
import type { ReadinessReport } from '../../ops/readiness.js';

export interface HealthReport {
  /** `ok` when the app can answer; `degraded` when it answers from fallbacks (Redis down). */
  status: 'ok' | 'degraded';
  [detail: string]: unknown;
}

export interface RouteDeps {
  health: () => Promise<HealthReport> | HealthReport;
  /** 200 when ready, else 503; the body names the failing checks either way. */
  readiness: () => ReadinessReport;
  registry: Registry;
}

const send = (res: ServerResponse, status: number, type: string, body: string) => {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
};

/** The route's handler, for its exact path alone (the query string aside). */
export function exactly(route: CustomRoute): CustomRoute {
  const { path, handler } = route;
  return {
    ...route,
    handler: (req, res) => {
      const target = req.url ?? '';
      const query = target.indexOf('?');
      if ((query === -1 ? target : target.slice(0, query)) !== path) {
        send(res, 404, 'text/plain', 'not found\n');
        return;
      }
      handler(req, res);
    },
  };
}

export function operationalRoutes(deps: RouteDeps): CustomRoute[] {
  return routes(deps).map(exactly);
}

function routes(deps: RouteDeps): CustomRoute[] {
  return [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req: IncomingMessage, res: ServerResponse) => {
        Promise.resolve(deps.health()).then(
          (report) => send(res, 200, 'application/json', JSON.stringify(report)),
          () => send(res, 503, 'application/json', JSON.stringify({ status: 'failing' })),
        );
      },
    },
    {
      path: '/readyz',
      method: ['GET'],
      handler: (_req: IncomingMessage, res: ServerResponse) => {
        const report = deps.readiness();
        send(
          res,
          report.status === 'ready' ? 200 : 503,
          'application/json',
          JSON.stringify(report),
        );
      },
    },
    {
      path: '/metrics',
      method: ['GET'],
      handler: (_req: IncomingMessage, res: ServerResponse) => {
        deps.registry.metrics().then(
          (text) => send(res, 200, deps.registry.contentType, text),
          () => send(res, 500, 'text/plain', 'metrics unavailable\n'),
        );
      },
    },
  ];
}
