/**
 * Supplier ids from an item's `supplierCodes`. The ERP documents no shape for their elements
 * (the sample shows an empty list); an element that names both a supplier id and a supplier
 * name teaches the index that pair, so `supplier:WORD` can be resolved to the id the search
 * filter takes. Anything else (strings, codes alone, names alone) teaches nothing.
 */
import { z } from 'zod';

const id = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number),
]);
const name = z.string().trim().min(1).max(200);

/** The id and name fields an ERP is likely to use, in the order they are tried. */
const ID_KEYS = ['supplier_id', 'supplierId', 'supplierid', 'supplier'] as const;
const NAME_KEYS = ['supplier_name', 'supplierName', 'suppliername', 'supplier', 'name'] as const;

const Element = z.record(z.string(), z.unknown());

function first<T>(
  record: Record<string, unknown>,
  keys: readonly string[],
  schema: z.ZodType<T>,
): T | undefined {
  for (const key of keys) {
    const parsed = schema.safeParse(record[key]);
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

/** The (id, name) pairs the elements carry; never throws. */
export function supplierIdsOf(codes: readonly unknown[]): Array<{ id: number; name: string }> {
  const found: Array<{ id: number; name: string }> = [];
  for (const element of codes.slice(0, 50)) {
    const record = Element.safeParse(element);
    if (!record.success) continue;
    const supplierId = first(record.data, ID_KEYS, id);
    const supplierName = first(
      record.data,
      NAME_KEYS,
      name.refine((v) => !/^\d+$/.test(v)),
    );
    if (supplierId !== undefined && supplierName !== undefined) {
      found.push({ id: supplierId, name: supplierName });
    }
  }
  return found;
}
