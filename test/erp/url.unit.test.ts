import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/erp/errors.js';
import { buildQuery, encodeKeywords, encodePathSegment, parseErpBase } from '../../src/erp/http.js';

describe('encodePathSegment', () => {
  it('round-trips any well-formed text as exactly one segment that is never a dot segment', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }), (code) => {
        const segment = encodePathSegment(code, 'getItem');
        expect(segment).not.toMatch(/[/?#\s]/);
        expect(segment).not.toMatch(/^\.{1,2}$/);
        expect(decodeURIComponent(segment)).toBe(code);
      }),
    );
  });

  it.each([
    ['.', '%2E'],
    ['..', '%2E%2E'],
    ['...', '%2E%2E%2E'],
    ['../x', '..%2Fx'],
    ['A+B-7', 'A%2BB-7'],
    ['100%-X', '100%25-X'],
    ['CAFÉ-01', 'CAF%C3%89-01'],
    ['a?b#c', 'a%3Fb%23c'],
  ])('%s -> %s', (code, expected) => {
    expect(encodePathSegment(code, 'getItem')).toBe(expected);
  });

  it('refuses empty and broken text as local bad input, not as the ERP refusing it', () => {
    expect(() => encodePathSegment('', 'getContact')).toThrow(
      expect.objectContaining({ code: 'erp_invalid_input', problem: 'empty_code' }),
    );
    expect(() => encodePathSegment('\uD83D', 'getContact')).toThrow(InvalidInputError);
    expect(() => encodePathSegment('\uD83D', 'getContact')).toThrow(
      expect.objectContaining({ problem: 'not_text', endpoint: 'getContact' }),
    );
  });
});

describe('encodeKeywords', () => {
  it('joins keywords with a bare + and encodes a + inside one', () => {
    expect(encodeKeywords(['a+b', 'c d', 'é'], 'searchItems')).toEqual({
      raw: 'a%2Bb+c%20d+%C3%A9',
    });
  });
  it('gives nothing for no keywords, so that q is left out', () => {
    expect(encodeKeywords([], 'searchItems')).toBeUndefined();
    expect(encodeKeywords(['', ''], 'searchContact')).toBeUndefined();
  });
});

describe('buildQuery', () => {
  it('keeps order, drops undefined values, encodes plain values', () => {
    expect(
      buildQuery([
        ['q', { raw: 'a+b' }],
        ['type', 'client&x'],
        ['limit', undefined],
        ['offset', 0],
      ]),
    ).toBe('q=a+b&type=client%26x&offset=0');
  });
});

describe('parseErpBase', () => {
  it.each([
    ['https://erp.example.com', 'https://erp.example.com', '/'],
    ['https://erp.example.com/', 'https://erp.example.com', '/'],
    ['https://ERP.example.com:8443/v2', 'https://erp.example.com:8443', '/v2/'],
    ['http://127.0.0.1:9000/erp/v2/?x=1#frag', 'http://127.0.0.1:9000', '/erp/v2/'],
  ])('%s', (baseUrl, origin, pathPrefix) => {
    expect(parseErpBase(baseUrl)).toEqual({ origin, pathPrefix });
  });
});
