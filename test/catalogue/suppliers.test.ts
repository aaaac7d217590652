import { describe, expect, it } from 'vitest';
import { catalogueExamples, seedNames } from '../../src/catalogue/examples.js';
import { matchItems } from '../../src/catalogue/match.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/catalogue/shared.js';
import { CatalogueStore, supplierIdsOf } from '../../src/catalogue/store.js';
import { resolveSupplierName } from '../../src/catalogue/suppliers.js';
import type { ItemSearchRow } from '../../src/erp/schemas.js';
import { makeItem } from '../helpers/builders.js';

function row(id: number, supplier: string, extra: Partial<ItemSearchRow> = {}): ItemSearchRow {
  return {
    id,
    code: `IT-${id}`,
    description: 'Steel bracket',
    category_name: 'Hardware',
    price: 10,
    supplier_name: supplier,
    status_label: 'Active',
    soh: 5,
    allocated: 0,
    onorder: 0,
    available: 5,
    has_bom: false,
    has_kit: false,
    ...extra,
  } as ItemSearchRow;
}

describe('a supplier filter answered by the index', () => {
  it('lists that supplier items with no word, by the id learned for its name', () => {
    const store = new CatalogueStore();
    store.addRows([row(1, 'Acme Pty'), row(2, 'Acme Pty')], 1, undefined, 201);
    store.addRows([row(3, 'Bolt Co')], 1);
    expect(matchItems(store, { words: [], supplier: 201 })?.map((item) => item.code)).toEqual([
      'IT-1',
      'IT-2',
    ]);
    // An id the index never learned: only the ERP knows what it means.
    expect(matchItems(store, { words: [], supplier: 999 })).toBeUndefined();
  });
});

describe('supplier ids in the index', () => {
  it('learns an id from a supplier-filtered search whose rows agree, not from mixed rows', () => {
    const store = new CatalogueStore();
    store.addRows([row(1, 'Acme Pty'), row(2, 'Acme Pty')], 1, undefined, 201);
    store.addRows([row(3, 'Bolt Co'), row(4, 'Other Ltd')], 1, undefined, 202);
    expect(store.suppliers()).toEqual([
      { name: 'Acme Pty', id: 201, items: 2 },
      { name: 'Bolt Co', id: undefined, items: 1 },
      { name: 'Other Ltd', id: undefined, items: 1 },
    ]);
  });

  it('learns ids from supplier codes that name both, and ignores shapes it cannot read', () => {
    expect(
      supplierIdsOf([
        { supplier_id: 7, supplier_name: 'Zeta Pty', code: 'Z-1' },
        { supplierId: '8', name: 'Eta Ltd' },
        { supplier: 'Sandbox Name', code: 'S123' },
        'S-555',
        null,
        { supplier: 9 },
      ]),
    ).toEqual([
      { id: 7, name: 'Zeta Pty' },
      { id: 8, name: 'Eta Ltd' },
    ]);
    const store = new CatalogueStore();
    store.addItem(
      makeItem({ supplierCodes: [{ supplier_id: 7, supplier_name: 'Zeta Pty', code: 'Z-1' }] }),
      1,
    );
    expect(store.suppliers().find((s) => s.name === 'Zeta Pty')?.id).toBe(7);
  });

  it('keeps learned suppliers through a snapshot', () => {
    const store = new CatalogueStore();
    seedNames(store, {
      categories: [{ id: 2, name: 'Widgets' }],
      suppliers: [{ id: 201, name: 'Acme' }],
    });
    const copy = new CatalogueStore();
    copy.load(decodeSnapshot(encodeSnapshot(store.snapshot())));
    expect(copy.suppliers()).toEqual([{ name: 'Acme', id: 201, items: 0 }]);
    expect(copy.categories()).toEqual([{ name: 'Widgets', id: 2, items: 0 }]);
  });
});

describe('resolveSupplierName', () => {
  const known = [
    { name: 'Acme Pty Ltd', id: 201, items: 3 },
    { name: 'Acme Fasteners', id: 202, items: 1 },
    { name: 'Bolton Supplies', id: 203, items: 4 },
    { name: 'Café Crème', id: 204, items: 1 },
    { name: 'Unknown Id Co', id: undefined, items: 9 },
  ];

  it('finds a name whole, by a word’s prefix, ignoring case and accents', () => {
    expect(resolveSupplierName(known, 'bolton')).toEqual({
      kind: 'found',
      id: 203,
      name: 'Bolton Supplies',
    });
    expect(resolveSupplierName(known, 'BOLT')).toMatchObject({ kind: 'found', id: 203 });
    expect(resolveSupplierName(known, 'cafe')).toMatchObject({ kind: 'found', id: 204 });
    expect(resolveSupplierName(known, 'fasteners')).toMatchObject({ kind: 'found', id: 202 });
  });

  it('lists several that fit, and the close names of one that fits none', () => {
    expect(resolveSupplierName(known, 'acme')).toMatchObject({
      kind: 'ambiguous',
      matches: [
        { id: 201, name: 'Acme Pty Ltd' },
        { id: 202, name: 'Acme Fasteners' },
      ],
    });
    expect(resolveSupplierName(known, 'boltin')).toMatchObject({
      kind: 'unknown',
      close: [{ id: 203, name: 'Bolton Supplies' }],
    });
    // A supplier whose id is not known cannot be used as a filter.
    expect(resolveSupplierName(known, 'unknown')).toEqual({ kind: 'unknown', close: [] });
  });
});

describe('catalogueExamples', () => {
  it('teaches with the index’s own codes and words, none when it is empty', () => {
    const store = new CatalogueStore();
    expect(catalogueExamples(store)).toBeUndefined();
    store.addRows(
      [
        row(1, 'Acme', { code: 'OUT-1', available: 0 }),
        row(2, 'Acme', { code: 'PUMP-220', description: 'Centrifugal pump 2in' }),
      ],
      1,
      7,
    );
    expect(catalogueExamples(store)).toEqual({
      itemCodes: ['PUMP-220'],
      itemSearches: ['centrifugal'],
      contactCodes: [],
      contactSearches: [],
      itemCategory: 7,
    });
  });
});
