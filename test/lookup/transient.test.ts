/**
 * Which failures a later try of the same request may not meet: the decision the Slack layer
 * offers Try again on and rethrows on, taken from the error model, never from the words.
 */
import { describe, expect, it } from 'vitest';
import {
  AuthError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  UnavailableError,
  UnexpectedDataError,
} from '../../src/erp/errors.js';
import { BusyError, InputError, isTransient } from '../../src/lookup/types.js';

/** Where each failure happened: any endpoint decides the same. */
const at = { endpoint: 'getItem' } as const;

describe('isTransient', () => {
  it.each([
    ['our budget busy', new BusyError(at.endpoint, 20_000)],
    ['a 429', new RateLimitedError('slow down', at)],
    ['a 5xx', new ServerError('down', { ...at, statusCode: 503 })],
    ['a timeout', new UnavailableError('timed out', { ...at, reason: 'timeout' })],
    ['a refused connection', new UnavailableError('refused', { ...at, reason: 'refused' })],
  ])('may pass: %s', (_, error) => {
    expect(isTransient(error)).toBe(true);
  });

  it.each([
    ['not found', new NotFoundError('no', { ...at, statusCode: 404 })],
    ['refused credentials', new AuthError('no', { ...at, statusCode: 401 })],
    ['unexpected data', new UnexpectedDataError('bad', at)],
    ['an oversized answer', new UnavailableError('big', { ...at, reason: 'too_large' })],
    ['input refused before the ERP', new InputError('bad_ref', at.endpoint)],
    ['anything else', new Error('bug')],
  ])('will fail again: %s', (_, error) => {
    expect(isTransient(error)).toBe(false);
  });
});
