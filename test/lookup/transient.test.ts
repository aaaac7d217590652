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

const endpoint = 'getItem' as const;

describe('isTransient', () => {
  it.each([
    ['our budget busy', new BusyError(endpoint, 20_000)],
    ['a 429', new RateLimitedError('slow down', { endpoint })],
    ['a 5xx', new ServerError('down', { endpoint, statusCode: 503 })],
    ['a timeout', new UnavailableError('timed out', { endpoint, reason: 'timeout' })],
    ['a refused connection', new UnavailableError('refused', { endpoint, reason: 'refused' })],
  ])('may pass: %s', (_, error) => {
    expect(isTransient(error)).toBe(true);
  });

  it.each([
    ['not found', new NotFoundError('no', { endpoint, statusCode: 404 })],
    ['refused credentials', new AuthError('no', { endpoint, statusCode: 401 })],
    ['unexpected data', new UnexpectedDataError('bad', { endpoint })],
    ['an oversized answer', new UnavailableError('big', { endpoint, reason: 'too_large' })],
    ['input refused before the ERP', new InputError('bad_ref', endpoint)],
    ['anything else', new Error('bug')],
  ])('will fail again: %s', (_, error) => {
    expect(isTransient(error)).toBe(false);
  });
});
