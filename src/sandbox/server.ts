/**
 * The sandbox ERP over node:http: a faithful simulator of the ERP API (docs/erp-api.md) for
 * the app's default mode, the tests and the benchmarks.
 *
 * Order of checks for a request to a known endpoint (choices the spec leaves open):
 * latency → Basic auth (401) → `Tenantid` (403) → rate limit per company code and endpoint
 * (429; 400s and 404s count against it, 401s and 403s do not) → hang / 500 faults →
 * parameters (400) → lookup (404) → malformed / drift faults on 200 answers.
 * The `Accept` header is not checked. Unknown paths are 404s; methods other than GET are 405s.
 */
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { AppLogger } from '../log/logger.js';
import { generateSandboxData } from './data.js';
import { type Endpoint, errorReply, type Reply, SandboxEndpoints } from './endpoints.js';
import { type SandboxExamples, sandboxExamples } from './examples.js';
import { applyDrift, type FaultDecision, malformBody, rollFaults } from './faults.js';
import { WindowLimiter } from './limiter.js';
import {
  DEFAULT_SANDBOX_BEHAVIOUR,
  NO_FAULTS,
  resolveBehaviour,
  resolveCredentials,
  resolveFaults,
  resolveLimits,
  type SandboxBehaviour,
  type SandboxCredentials,
  type SandboxFaults,
  type SandboxOptions,
} from './options.js';
import { createRandom, unseededRandom } from './prng.js';
import type { SandboxData } from './types.js';

export type {
  SandboxBehaviour,
  SandboxCredentials,
  SandboxFaults,
  SandboxLimits,
  SandboxOptions,
} from './options.js';
export { DEFAULT_SANDBOX_CREDENTIALS } from './options.js';

export interface SandboxStats {
  /** Per endpoint name, plus `unknown` for other paths. */
  requests: Record<string, number>;
  /** Per status code sent (`"200"`, `"429"`), plus `hang` for requests never answered. */
  byStatus: Record<string, number>;
  rateLimited: number;
}

export interface RunningSandbox {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:43121 (paths are /api/...). */
  url: string;
  credentials: SandboxCredentials;
  data: SandboxData;
  setFaults(faults: Partial<SandboxFaults>): void;
  setBehaviour(behaviour: Partial<SandboxBehaviour>): void;
  stats(): SandboxStats;
  resetStats(): void;
  resetLimits(): void;
  examples(): SandboxExamples;
  /** Stops listening and ends every open connection, hanging requests included. */
  close(): Promise<void>;
}

const ROUTE = /^\/api\/(getItem|getContact|searchItems|searchContact)(?:\/([^/]*))?$/;

interface Routed {
  endpoint: Endpoint;
  rawValue: string | undefined;
}

function route(pathname: string): Routed | undefined {
  const match = ROUTE.exec(pathname);
  if (!match) return undefined;
  const endpoint = match[1] as Endpoint;
  const rawValue = match[2];
  const takesValue = endpoint === 'getItem' || endpoint === 'getContact';
  if (!takesValue && rawValue !== undefined) return undefined;
  return { endpoint, rawValue };
}

function emptyStats(): SandboxStats {
  return { requests: {}, byStatus: {}, rateLimited: 0 };
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

function authorised(header: string | undefined, credentials: SandboxCredentials): boolean {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) return false;
  return (
    decoded.slice(0, separator) === credentials.companyCode &&
    decoded.slice(separator + 1) === credentials.accessToken
  );
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const credentials = resolveCredentials(options.credentials);
  const limits = resolveLimits(options.limits);
  let behaviour = resolveBehaviour(DEFAULT_SANDBOX_BEHAVIOUR, options.behaviour);
  let faults = resolveFaults(NO_FAULTS, options.faults);
  const data = options.data ?? generateSandboxData(options.seed);
  const endpoints = new SandboxEndpoints(data);
  const limiter = new WindowLimiter(options.now);
  const random = options.seed !== undefined ? createRandom(options.seed) : unseededRandom();
  const logger: AppLogger | undefined = namedSandbox(options.logger);
  const closing = new AbortController();
  // Every delayed answer listens on this one signal; hundreds may wait at once under load.
  setMaxListeners(0, closing.signal);
  const hanging = new Set<ServerResponse>();
  let stats = emptyStats();

  const send = (res: ServerResponse, reply: Reply, extraHeaders: Record<string, string> = {}) => {
    bump(stats.byStatus, String(reply.status));
    const text = reply.format === 'json' ? JSON.stringify(reply.body) : String(reply.body);
    const contentType =
      reply.format === 'json'
        ? 'application/json; charset=utf-8'
        : reply.format === 'xml'
          ? 'application/xml; charset=utf-8'
          : 'text/plain; charset=utf-8';
    res.writeHead(reply.status, {
      'content-type': contentType,
      'content-length': Buffer.byteLength(text),
      ...extraHeaders,
    });
    res.end(text);
  };

  const withBodyFaults = (
    res: ServerResponse,
    endpoint: Endpoint,
    reply: Reply,
    roll: FaultDecision,
  ) => {
    if (reply.status !== 200 || reply.format === 'text') return send(res, reply);
    let body = reply;
    const headers: Record<string, string> = {};
    if (roll.drift && reply.format === 'json') {
      const drifted = applyDrift(endpoint, reply.body, roll.variant);
      if (drifted) {
        body = { ...reply, body: drifted.body };
        headers['x-sandbox-fault'] = `drift:${drifted.path}:${drifted.kind}`;
      }
    }
    if (roll.malformed) {
      const text = body.format === 'json' ? JSON.stringify(body.body) : String(body.body);
      headers['x-sandbox-fault'] = `malformed:${roll.malformed}`;
      return send(
        res,
        { ...body, body: malformBody(text, roll.malformed), format: 'text' },
        {
          ...headers,
          // A malformed answer still claims to be what was asked for.
          'content-type':
            body.format === 'xml'
              ? 'application/xml; charset=utf-8'
              : 'application/json; charset=utf-8',
        },
      );
    }
    return send(res, body, headers);
  };

  const handleRouted = async (
    req: IncomingMessage,
    res: ServerResponse,
    routed: Routed,
    query: string,
  ) => {
    const { endpoint } = routed;
    bump(stats.requests, endpoint);
    const roll = rollFaults(random, faults);
    if (roll.delayMs > 0) await delay(roll.delayMs, undefined, { signal: closing.signal });
    if (!authorised(req.headers.authorization, credentials)) {
      return send(res, errorReply(401, 'Authentication failed'), {
        'www-authenticate': 'Basic realm="ERP"',
      });
    }
    if (req.headers.tenantid !== credentials.tenantId)
      return send(res, errorReply(403, 'Invalid tenant id'));
    const decision = limiter.consume(
      `${credentials.companyCode}:${endpoint}`,
      limits[endpoint],
      limits.windowMs,
    );
    if (!decision.allowed) {
      stats.rateLimited += 1;
      const headers: Record<string, string> = behaviour.retryAfter
        ? { 'retry-after': String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))) }
        : {};
      return send(res, errorReply(429, 'Too many requests'), headers);
    }
    if (roll.hang) {
      bump(stats.byStatus, 'hang');
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (roll.error)
      return send(res, errorReply(500, 'Internal server error'), { 'x-sandbox-fault': 'error' });
    let pathValue: string | undefined;
    try {
      pathValue = routed.rawValue === undefined ? undefined : decodeURIComponent(routed.rawValue);
    } catch {
      return send(res, errorReply(400, 'Invalid percent-encoding in the path'));
    }
    const reply = endpoints.handle({
      endpoint,
      pathValue,
      params: new URLSearchParams(query),
      wantsXml: req.headers.xmlresponse !== undefined,
      behaviour,
    });
    withBodyFaults(res, endpoint, reply, roll);
  };

  const server = createServer((req, res) => {
    // The raw target, not `new URL()`: WHATWG URL parsing would resolve `%2E%2E` and friends,
    // and the sandbox must see the path exactly as the client encoded it.
    const target = req.url ?? '/';
    const queryStart = target.indexOf('?');
    const pathname = queryStart < 0 ? target : target.slice(0, queryStart);
    const query = queryStart < 0 ? '' : target.slice(queryStart + 1);
    const routed = route(pathname);
    if (req.method !== 'GET') {
      bump(stats.requests, routed?.endpoint ?? 'unknown');
      return send(res, errorReply(405, 'Only GET is supported'), { allow: 'GET' });
    }
    if (!routed) {
      bump(stats.requests, 'unknown');
      return send(res, errorReply(404, 'Unknown endpoint'));
    }
    handleRouted(req, res, routed, query)
      .then(() =>
        logger?.debug({ endpoint: routed.endpoint, status: res.statusCode }, 'sandbox request'),
      )
      .catch((error: unknown) => {
        if (closing.signal.aborted) return void res.destroy();
        logger?.error({ err: error, endpoint: routed.endpoint }, 'sandbox request failed');
        if (!res.headersSent) send(res, errorReply(500, 'Internal server error'));
        else res.destroy();
      });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  logger?.info({ url, seed: data.seed }, 'sandbox ERP listening');

  let closed: Promise<void> | undefined;
  return {
    url,
    credentials,
    data,
    setFaults: (change) => {
      faults = resolveFaults(faults, change);
    },
    setBehaviour: (change) => {
      behaviour = resolveBehaviour(behaviour, change);
    },
    stats: () => structuredClone(stats),
    resetStats: () => {
      stats = emptyStats();
    },
    resetLimits: () => limiter.reset(),
    examples: () => sandboxExamples(data),
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/**
 * The sandbox's log lines say `"component":"sandbox"` once: a logger its caller already
 * named (the app's, `npm run sandbox`'s) is used as it is, since pino would repeat the key.
 */
function namedSandbox(logger: AppLogger | undefined): AppLogger | undefined {
  if (!logger || logger.bindings().component !== undefined) return logger;
  return logger.child({ component: 'sandbox' });
}
