/**
 * The transport half of the ERP client: one GET over an undici dispatcher, a body read with a
 * size cap, and transport failures sorted into `UnavailableReason`s.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import type { UnavailableReason } from './errors.js';

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

/** Thrown by `RequestGate` when its queue is full; classified as reason `queue_full`. */
export class QueueFullError extends Error {
  readonly code = 'ERP_QUEUE_FULL';
}

/**
 * The bounded queue in front of the pool: at most `slots` calls run (one per connection), at
 * most `maxQueued` wait; past that a call fails at once instead of piling up in undici's
 * unbounded queue behind an ERP that stopped answering. A caller that gives up while waiting
 * (its AbortSignal) leaves the queue.
 */
export class RequestGate {
  private active = 0;
  private readonly waiting = new Set<() => void>();

  constructor(
    private readonly slots: number,
    private readonly maxQueued: number,
  ) {}

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.active < this.slots) this.active += 1;
    else await this.wait(signal);
    try {
      return await task();
    } finally {
      // Hand the slot straight to the longest waiter, or free it.
      const next = this.waiting.values().next();
      if (next.done) this.active -= 1;
      else {
        this.waiting.delete(next.value);
        next.value();
      }
    }
  }

  private wait(signal: AbortSignal | undefined): Promise<void> {
    if (this.waiting.size >= this.maxQueued) return Promise.reject(new QueueFullError());
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(go);
        reject(signal?.reason);
      };
      const go = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.waiting.add(go);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
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
