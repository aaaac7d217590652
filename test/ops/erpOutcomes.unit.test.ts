/** Which ERP outcomes move readiness, and which say nothing about the ERP's health. */
import { describe, expect, it } from 'vitest';
import {
  AuthError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TenantError,
  UnavailableError,
} from '../../src/erp/errors.js';
import { signalOf } from '../../src/ops/readiness.js';

const endpoint = 'getItem' as const;

describe('signalOf', () => {
  it.each([
    ['a 404', new NotFoundError('no such item', { endpoint }), { kind: 'answered' }],
    ['a 429', new RateLimitedError('slow down', { endpoint }), { kind: 'answered' }],
    [
      'a 401',
      new AuthError('refused', { endpoint }),
      { kind: 'credentials_refused', code: 'erp_auth' },
    ],
    [
      'a 403',
      new TenantError('refused', { endpoint }),
      { kind: 'credentials_refused', code: 'erp_tenant' },
    ],
    [
      'a refused connection',
      new UnavailableError('refused', { endpoint, reason: 'refused' }),
      { kind: 'unreachable', reason: 'refused' },
    ],
    [
      'a timeout',
      new UnavailableError('timed out', { endpoint, reason: 'timeout' }),
      { kind: 'unreachable', reason: 'timeout' },
    ],
  ])('reads %s', (_, error, signal) => {
    expect(signalOf(error)).toEqual(signal);
  });

  it.each([
    ['a 5xx (the breaker judges repeated ones)', new ServerError('boom', { endpoint })],
    ['an oversized body', new UnavailableError('big', { endpoint, reason: 'too_large' })],
    ['our own open breaker', new UnavailableError('open', { endpoint, reason: 'circuit_open' })],
    ['an error that is not the ERP', new Error('bug')],
  ])('ignores %s', (_, error) => {
    expect(signalOf(error)).toBeUndefined();
  });
});
