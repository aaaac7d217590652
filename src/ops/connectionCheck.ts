/**
 * The ERP connection check readiness makes when no call was answered for a while: it sends no
 * request, so it costs no rate budget.
 */
import { connect } from 'node:net';
import type { UnavailableReason } from '../erp/errors.js';
import { classifyTransportError } from '../erp/http.js';

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
