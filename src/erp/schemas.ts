/**
 * zod schemas for every ERP payload we read (docs/erp-api.md describes them).
 *
 * - Unknown fields are ignored: `z.object` strips them, so a new ERP version that adds fields
 *   keeps working.
 * - Fields the spec does not describe the shape of (`supplierCodes` elements, the numeric
 *   `status`) are accepted loosely; we never compute with them.
 * - Fields we display or compute with are checked strictly, so drift becomes an
 *   `UnexpectedDataError` carrying the field path instead of a broken card.
 * - Strings the spec says "may be empty" also accept `null` and become `''`.
 */
import { z } from 'zod';

const num = z.number().finite();
const int = z.number().int();
const maybeEmpty = z
  .string()
  .nullish()
  .transform((value) => value ?? '');
/** The numeric status mapping is not shown by the spec: accept any scalar, never rely on it. */
const looseStatus = z.union([z.number(), z.string()]).nullish();
/** The four stock figures, the same on an item, a branch and a search row. */
const stockFigures = { soh: num, allocated: num, onorder: num, available: num };
/** Another item, as a bill of materials or a kit names it, with its quantity. */
const itemLine = { inventoryId: int, code: z.string(), description: maybeEmpty, qty: num };

export const BranchStockSchema = z.object({
  id: int,
  name: z.string(),
  ...stockFigures,
});
export type BranchStock = z.infer<typeof BranchStockSchema>;

export const BomComponentSchema = z.object({
  ...itemLine,
  cost: num,
  has_bom: z.boolean(),
});
export type BomComponent = z.infer<typeof BomComponentSchema>;

export const KitEntrySchema = z.object({
  ...itemLine,
  auto: z.boolean(),
  groupname: maybeEmpty.optional().transform((value) => value ?? ''),
  group_mode: int.nullish(),
});
export type KitEntry = z.infer<typeof KitEntrySchema>;

export const ItemSchema = z.object({
  id: int,
  status: looseStatus,
  status_label: z.string(),
  code: z.string(),
  category: maybeEmpty,
  description: maybeEmpty,
  cost: num,
  primarysupplier: maybeEmpty,
  /**
   * Element shape not shown by the spec: kept as given (a lone value becomes a one-element
   * list), displayed only when readable. Nothing here can make an item unreadable.
   */
  supplierCodes: z
    .unknown()
    .optional()
    .transform((value): unknown[] =>
      Array.isArray(value) ? value : value === null || value === undefined ? [] : [value],
    ),
  ...stockFigures,
  has_bom: z.boolean(),
  bom: z.array(BomComponentSchema),
  has_kit: z.boolean(),
  kits: z.array(KitEntrySchema),
  branches: z.array(BranchStockSchema),
});
export type Item = z.infer<typeof ItemSchema>;

export const ItemSearchRowSchema = z.object({
  id: int,
  code: z.string(),
  description: maybeEmpty,
  category_name: maybeEmpty,
  price: num,
  supplier_name: maybeEmpty,
  status_label: z.string(),
  ...stockFigures,
  has_bom: z.boolean(),
  has_kit: z.boolean(),
});
export type ItemSearchRow = z.infer<typeof ItemSearchRowSchema>;

export const AddressbookEntrySchema = z.object({
  id: int,
  salutation: maybeEmpty,
  name: maybeEmpty,
  role: maybeEmpty,
  department: maybeEmpty,
  telephone: maybeEmpty,
  mobile: maybeEmpty,
  email: maybeEmpty,
  email2: maybeEmpty,
  status_label: maybeEmpty,
});
export type AddressbookEntry = z.infer<typeof AddressbookEntrySchema>;

export const ContactSchema = z.object({
  clientid: int,
  code: z.string(),
  company: z.string(),
  status: looseStatus,
  status_label: z.string(),
  account_type: z.string(),
  custgroup_label: maybeEmpty,
  /** abn, address4, terms, discount, stopcred: meaning not shown; displayed as given. */
  abn: maybeEmpty,
  address4: maybeEmpty,
  state: maybeEmpty,
  telephone: maybeEmpty,
  email: maybeEmpty,
  salesperson: z.string().nullable(),
  terms: maybeEmpty,
  climit: num,
  discount: num,
  stopcred: num,
  addressbook: z.array(AddressbookEntrySchema),
});
export type Contact = z.infer<typeof ContactSchema>;

/** A search row: the contact's own fields as on the card, and how many people it has. */
export const ContactSearchRowSchema = ContactSchema.pick({
  clientid: true,
  code: true,
  company: true,
  status: true,
  status_label: true,
  account_type: true,
  address4: true,
  state: true,
  telephone: true,
  email: true,
  salesperson: true,
}).extend({ addressbook_count: int.nonnegative() });
export type ContactSearchRow = z.infer<typeof ContactSearchRowSchema>;

const envelope = {
  query: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  count: int.nonnegative(),
  limit: int.nonnegative(),
  offset: int.nonnegative(),
};

export const ItemSearchEnvelopeSchema = z.object({
  ...envelope,
  items: z.array(ItemSearchRowSchema),
});
export type ItemSearchEnvelope = z.infer<typeof ItemSearchEnvelopeSchema>;

export const ContactSearchEnvelopeSchema = z.object({
  ...envelope,
  contacts: z.array(ContactSearchRowSchema),
});
export type ContactSearchEnvelope = z.infer<typeof ContactSearchEnvelopeSchema>;
