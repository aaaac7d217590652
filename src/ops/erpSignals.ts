/**
 * What readiness learns from the ERP: every call's outcome, read off a thin wrapper around the
 * ERP client, and a connection check that sends no request (so it costs no rate budget).
 */
import { connect } from 'node:net';
import type { ErpApi } from '../erp/api.js';
import {
  AuthError,
  ErpError,
  ServerError,
  TenantError,
  UnavailableError,
  type UnavailableReason,
} from '../erp/errors.js';
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
 * A failed call's signal. Only reasons that concern the ERP's reachability count: an
 * oversized body, our own open breaker or a local queue says nothing new about it.
 */
export function signalOf(error: unknown): ErpSignal | undefined {
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

/** The same ERP, reporting the signal of every call's outcome to `observe`. */
export function observedErp(erp: ErpApi, observe: (signal: ErpSignal) => void): ErpApi {
  const watch = <T>(call: Promise<T>): Promise<T> =>
    call.then(
      (value) => {
        observe({ kind: 'answered' });
        return value;
      },
      (error: unknown) => {
        const signal = signalOf(error);
        if (signal) observe(signal);
        throw error;
      },
    );
  return {
    credentialKey: erp.credentialKey,
    getItem: (ref, options) => watch(erp.getItem(ref, options)),
    getContact: (ref, options) => watch(erp.getContact(ref, options)),
    searchItems: (params, options) => watch(erp.searchItems(params, options)),
    searchContact: (params, options) => watch(erp.searchContact(params, options)),
  };
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
