import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ItemSchema } from '../../src/erp/schemas.js';

const item = JSON.parse(
  readFileSync(new URL('./fixtures/item-widget-9.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

describe('supplierCodes, whose shape the spec does not show', () => {
  it.each([
    [
      'an array of objects',
      [{ supplier: 'Acme', code: 'A-1' }],
      [{ supplier: 'Acme', code: 'A-1' }],
    ],
    ['an array of strings', ['A-1', 'B-2'], ['A-1', 'B-2']],
    ['a lone object', { code: 'A-1' }, [{ code: 'A-1' }]],
    ['a lone string', 'A-1', ['A-1']],
    ['null', null, []],
  ])('accepts %s', (_name, given, expected) => {
    expect(ItemSchema.parse({ ...item, supplierCodes: given }).supplierCodes).toEqual(expected);
  });

  it('accepts the field missing', () => {
    const { supplierCodes: _omitted, ...rest } = item;
    expect(ItemSchema.parse(rest).supplierCodes).toEqual([]);
  });
});
