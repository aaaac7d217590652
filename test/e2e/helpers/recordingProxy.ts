/**
 * A small recording proxy between the app and the sandbox ERP, for the spec-gap tests: it
 * shows what goes on the wire (offset always sent, never an empty `q`, never XML or debug)
 * and stands in for ERP answers the sandbox never gives (an error body of another shape, a
 * `count` that is the `limit` asked for).
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface SeenRequest {
  /** The raw request target, e.g. `/api/searchItems?q=blue&limit=50&offset=0`. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface ErpProxy {
  url: string;
  seen: SeenRequest[];
  /** When it returns a reply, the proxy answers with it instead of asking the ERP. */
  intercept: ((seen: SeenRequest) => { status: number; body: string } | undefined) | undefined;
  /** Rewrites the ERP's successful JSON answers. */
  rewrite: ((seen: SeenRequest, body: Record<string, unknown>) => unknown) | undefined;
  /**
   * While set, requests wait for it before going on to the ERP: a test holds the ERP's
   * answers back until it has seen what happens first, with no sleep and no latency.
   */
  gate: Promise<void> | undefined;
  /** Sets `gate` and returns what opens it again (and clears it). */
  hold(): () => void;
  close(): Promise<void>;
}

/** Starts the proxy on a free loopback port in front of `erpUrl`. */
export async function startErpProxy(erpUrl: string): Promise<ErpProxy> {
  const proxy: ErpProxy = {
    url: '',
    seen: [],
    intercept: undefined,
    rewrite: undefined,
    gate: undefined,
    hold: () => {
      let open = () => {};
      proxy.gate = new Promise((resolve) => {
        open = resolve;
      });
      return () => {
        proxy.gate = undefined;
        open();
      };
    },
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const seen: SeenRequest = { target: req.url ?? '/', headers: req.headers };
    proxy.seen.push(seen);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        ...headers,
      });
      res.end(body);
    };
    const intercepted = proxy.intercept?.(seen);
    if (intercepted) return send(intercepted.status, intercepted.body);
    const { host: _host, connection: _connection, ...forwarded } = req.headers;
    Promise.resolve(proxy.gate)
      .then(() =>
        request(`${erpUrl}${seen.target}`, {
          method: 'GET',
          headers: forwarded as Record<string, string>,
        }),
      )
      .then(async (upstream) => {
        let body = await upstream.body.text();
        if (proxy.rewrite && upstream.statusCode === 200) {
          body = JSON.stringify(proxy.rewrite(seen, JSON.parse(body) as Record<string, unknown>));
        }
        const retryAfter = upstream.headers['retry-after'];
        send(
          upstream.statusCode,
          body,
          typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : {},
        );
      })
      .catch(() => send(502, '{"error":"proxy"}'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}

/** The query parameters of every search the proxy has seen on one endpoint, in order. */
export const searchesSeen = (proxy: ErpProxy, endpoint: 'searchItems' | 'searchContact') =>
  proxy.seen
    .filter((seen) => seen.target.startsWith(`/api/${endpoint}?`))
    .map((seen) => new URLSearchParams(seen.target.slice(seen.target.indexOf('?') + 1)));
