/**
 * What readiness learns from the ERP: every call's outcome (the client's `callEnded` event,
 * wired by the composition root), and a connection check that sends no request (so it costs
 * no rate budget).
 */
import { connect } from 'node:net';
import {
  AuthError,
  ErpError,
  ServerError,
  TenantError,
  UnavailableError,
  type UnavailableReason,
} from '../erp/errors.js';
import type { ErpEvents } from '../erp/events.js';
import { classifyTransportError } from '../erp/http.js';

/** What one ERP call says about the ERP's health; `undefined` when it says nothing. */
export type ErpSignal =
  | { kind: 'answered' }
  | { kind: 'credentials_refused'; code: 'erp_auth' | 'erp_tenant' }
  | { kind: 'unreachable'; reason: UnavailableReason };

/** Reasons the connection check can see and clear again (the ERP refused or vanished). */
export const CONNECTION_REASONS: ReadonlySet<UnavailableReason> = new Set([
  'refused',
  'reset',
  'dns',
  'network',
]);

/**
 * A call's signal (`error` undefined: it succeeded). Only reasons that concern the ERP's reachability count: an
 * oversized body, our own open breaker or a local queue says nothing new about it.
 */
export function signalOf(error: unknown): ErpSignal | undefined {
  if (error === undefined) return { kind: 'answered' };
  if (error instanceof AuthError) return { kind: 'credentials_refused', code: 'erp_auth' };
  if (error instanceof TenantError) return { kind: 'credentials_refused', code: 'erp_tenant' };
  if (error instanceof UnavailableError) {
    return CONNECTION_REASONS.has(error.reason) || error.reason === 'timeout'
      ? { kind: 'unreachable', reason: error.reason }
      : undefined;
  }
  // A 5xx may concern one record only; repeated ones open the breaker, which readiness reads.
  if (error instanceof ServerError) return undefined;
  // 404, 400, 429, a body that does not match: the ERP answered and accepted the credentials.
  if (error instanceof ErpError) return { kind: 'answered' };
  return undefined;
}

/** Hands `observe` the signal of every ERP call that says something about the ERP's health. */
export function followErpCalls(events: ErpEvents, observe: (signal: ErpSignal) => void): void {
  events.on('callEnded', ({ error }) => {
    const signal = signalOf(error);
    if (signal) observe(signal);
  });
}

/**
 * Opens a TCP connection to the ERP's host and closes it at once. Resolves when the ERP
 * accepts connections; rejects with the reason it does not (`refused`, `dns`, `timeout` …).
 */
export function connectOnce(baseUrl: string, timeoutMs: number): Promise<void> {
  const url = new URL(baseUrl);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new ConnectionCheckError('timeout'));
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', (error: Error) => {
      socket.destroy();
      reject(new ConnectionCheckError(classifyTransportError(error)));
    });
  });
}

export class ConnectionCheckError extends Error {
  constructor(readonly reason: UnavailableReason) {
    super(`ERP connection check failed: ${reason}`);
    this.name = 'ConnectionCheckError';
  }
}
