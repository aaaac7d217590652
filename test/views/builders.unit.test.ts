import { describe, expect, it } from 'vitest';
import {
  AddressbookEntrySchema,
  BomComponentSchema,
  BranchStockSchema,
  ContactSchema,
  ContactSearchRowSchema,
  ItemSchema,
  ItemSearchRowSchema,
  KitEntrySchema,
} from '../../src/erp/schemas.js';
import {
  makeAddressbookEntry,
  makeBomComponent,
  makeBranch,
  makeContact,
  makeContactRow,
  makeItem,
  makeItemRow,
  makeKit,
} from '../helpers/builders.js';

describe('test builders produce what the ERP schemas accept', () => {
  it.each([
    ['item', ItemSchema, makeItem({ bom: [makeBomComponent()], kits: [makeKit()] })],
    ['branch', BranchStockSchema, makeBranch()],
    ['BOM component', BomComponentSchema, makeBomComponent()],
    ['kit', KitEntrySchema, makeKit()],
    ['item row', ItemSearchRowSchema, makeItemRow()],
    ['contact', ContactSchema, makeContact()],
    ['addressbook entry', AddressbookEntrySchema, makeAddressbookEntry()],
    ['contact row', ContactSearchRowSchema, makeContactRow()],
  ] as const)('%s', (_name, schema, value) => {
    expect(schema.parse(value)).toEqual(value);
  });

  it('keeps item totals consistent with its branches unless overridden', () => {
    const item = makeItem({
      branches: [makeBranch({ soh: 5, allocated: 7 }), makeBranch({ id: 2, soh: 3, allocated: 0 })],
    });
    expect([item.soh, item.allocated, item.available]).toEqual([8, 7, 1]);
    expect(makeItem({ bom: [makeBomComponent()] }).has_bom).toBe(true);
  });
});
