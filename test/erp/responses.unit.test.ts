import { describe, expect, it } from 'vitest';
import { classifyTransportError } from '../../src/erp/http.js';
import { DriftReporter, issuePath, parseRetryAfter } from '../../src/erp/schemas.js';
import { SecretScrubber, withoutQuotedSource } from '../../src/erp/secrets.js';
import type { AppLogger } from '../../src/log/logger.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['120', 120_000],
    [' 5 ', 5000],
    ['Sun, 01 Jun 2025 12:01:00 GMT', 60_000],
    ['Sun, 01 Jun 2025 11:59:00 GMT', 0],
    ['Sunday, 01-Jun-25 12:00:10 GMT', 10_000],
    ['Sun Jun  1 12:00:02 2025', 2000],
    ['-3', undefined],
    ['1.5', undefined],
    ['later', undefined],
    ['', undefined],
  ])('%j -> %s', (header, expected) => {
    expect(parseRetryAfter(header, NOW)).toBe(expected);
  });
  it('is undefined without the header and reads the first of repeated ones', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter(['2', '9'], NOW)).toBe(2000);
  });
});

describe('issuePath', () => {
  it('joins with dots and names the whole body', () => {
    expect(issuePath(['branches', 3, 'available'])).toBe('branches.3.available');
    expect(issuePath([])).toBe('(body)');
  });
});

describe('DriftReporter', () => {
  function recordingLogger(): { logger: AppLogger; warnings: unknown[] } {
    const warnings: unknown[] = [];
    const logger = { warn: (fields: unknown) => warnings.push(fields) } as unknown as AppLogger;
    return { logger, warnings };
  }

  it('warns once per endpoint and field, with array indices folded', () => {
    const { logger, warnings } = recordingLogger();
    const drift = new DriftReporter(logger);
    const issue = (path: string) => ({ path, message: 'Invalid input' });
    drift.report('getItem', [issue('branches.0.available'), issue('branches.3.available')]);
    drift.report('getItem', [issue('branches.7.available')]);
    drift.report('searchItems', [issue('items.0.available')]);
    drift.report('getContact', [issue('branches.1.available')]);
    expect(warnings).toEqual([
      { endpoint: 'getItem', field: 'branches.*.available', problem: 'Invalid input' },
      { endpoint: 'searchItems', field: 'items.*.available', problem: 'Invalid input' },
      { endpoint: 'getContact', field: 'branches.*.available', problem: 'Invalid input' },
    ]);
  });

  it('stops remembering new fields past its bound', () => {
    const { logger, warnings } = recordingLogger();
    const drift = new DriftReporter(logger, 2);
    for (const path of ['a', 'b', 'c', 'd']) drift.report('getItem', [{ path, message: 'x' }]);
    expect(warnings).toHaveLength(2);
  });
});

describe('classifyTransportError', () => {
  const coded = (code: string, extra: object = {}) =>
    Object.assign(new Error(code), { code }, extra);
  it.each([
    [coded('UND_ERR_HEADERS_TIMEOUT'), 'timeout'],
    [coded('UND_ERR_BODY_TIMEOUT'), 'timeout'],
    [coded('UND_ERR_CONNECT_TIMEOUT'), 'timeout'],
    [coded('ECONNREFUSED'), 'refused'],
    [coded('UND_ERR_SOCKET'), 'reset'],
    [coded('ENOTFOUND'), 'dns'],
    [new Error('wrapped', { cause: coded('EAI_AGAIN') }), 'dns'],
    [new AggregateError([coded('ECONNREFUSED')]), 'refused'],
    [new Error('something else'), 'network'],
  ])('%s', (error, reason) => {
    expect(classifyTransportError(error)).toBe(reason);
  });
});

describe('SecretScrubber', () => {
  it('scrubs message and stack down the cause chain and inside AggregateErrors', () => {
    const scrubber = new SecretScrubber(['s3cr3t-token', undefined, 'ab']);
    const inner = new Error('inner s3cr3t-token');
    const error = new AggregateError([inner], 'outer s3cr3t-token', {
      cause: new Error('cause s3cr3t-token'),
    });
    scrubber.scrubError(error);
    expect(error.message).toBe('outer [secret]');
    expect(error.stack).not.toContain('s3cr3t-token');
    expect((error.cause as Error).message).toBe('cause [secret]');
    expect(inner.message).toBe('inner [secret]');
    // Too short to be a secret: ordinary text is left alone.
    expect(scrubber.scrub('abc')).toBe('abc');
  });

  it('cuts the quoted body out of JSON.parse messages', () => {
    expect(withoutQuotedSource('Unexpected token \'o\', "{"a": tok_li"... is not valid JSON')).toBe(
      'Unexpected token \'o\', "[body]" is not valid JSON',
    );
    expect(withoutQuotedSource('Unexpected end of JSON input')).toBe(
      'Unexpected end of JSON input',
    );
  });
});
