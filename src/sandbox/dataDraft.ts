/**
 * Items are first built as drafts that point at each other (BOM components, kit entries), then
 * finalised into ERP records once every link is known, so that derived fields (`has_bom` on a
 * component, totals across branches) are consistent by construction.
 */
import { round } from './dataCatalogue.js';
import {
  type BranchStockRecord,
  ITEM_STATUS,
  type KitEntryRecord,
  type NamedId,
  type SandboxItem,
} from './types.js';

export interface KitDraft {
  item: ItemDraft;
  qty: number;
  auto: boolean;
  /** `undefined`: the field is left out of the record. */
  groupname?: string;
  group_mode?: number;
}

export interface ItemDraft {
  id: number;
  code: string;
  description: string;
  categoryId: number;
  supplierId: number;
  cost: number;
  price: number;
  disabled: boolean;
  stock: BranchStockRecord[];
  supplierCode?: string;
  bom: Array<{ component: ItemDraft; qty: number }>;
  kits: KitDraft[];
}

interface Lookup {
  categories: ReadonlyMap<number, NamedId>;
  suppliers: ReadonlyMap<number, NamedId>;
}

function kitRecord(kit: KitDraft): KitEntryRecord {
  const record: KitEntryRecord = {
    inventoryId: kit.item.id,
    code: kit.item.code,
    description: kit.item.description,
    qty: kit.qty,
    auto: kit.auto,
  };
  if (kit.groupname !== undefined) record.groupname = kit.groupname;
  if (kit.group_mode !== undefined) record.group_mode = kit.group_mode;
  return record;
}

function total(stock: readonly BranchStockRecord[], field: keyof BranchStockRecord): number {
  return round(
    stock.reduce((sum, row) => sum + (row[field] as number), 0),
    3,
  );
}

export function finaliseItem(draft: ItemDraft, lookup: Lookup): SandboxItem {
  const supplier = lookup.suppliers.get(draft.supplierId)?.name ?? '';
  const soh = total(draft.stock, 'soh');
  const allocated = total(draft.stock, 'allocated');
  return {
    categoryId: draft.categoryId,
    supplierId: draft.supplierId,
    price: draft.price,
    record: {
      id: draft.id,
      status: draft.disabled ? ITEM_STATUS.Disabled : ITEM_STATUS.Active,
      status_label: draft.disabled ? 'Disabled' : 'Active',
      code: draft.code,
      category: lookup.categories.get(draft.categoryId)?.name ?? '',
      description: draft.description,
      cost: draft.cost,
      primarysupplier: supplier,
      supplierCodes: draft.supplierCode ? [{ supplier, code: draft.supplierCode }] : [],
      soh,
      allocated,
      onorder: total(draft.stock, 'onorder'),
      // Computed from the rounded totals so that available = soh - allocated exactly.
      available: round(soh - allocated, 3),
      has_bom: draft.bom.length > 0,
      bom: draft.bom.map(({ component, qty }) => ({
        inventoryId: component.id,
        code: component.code,
        description: component.description,
        qty,
        cost: component.cost,
        has_bom: component.bom.length > 0,
      })),
      has_kit: draft.kits.length > 0,
      kits: draft.kits.map(kitRecord),
      branches: draft.stock.map((row) => ({ ...row })),
    },
  };
}

/** What assembling adds to the cost of the parts (labour, overheads). */
const ASSEMBLY_WORK = 1.1;

/**
 * An assembly costs what its components cost (times their quantities) plus assembly work, so
 * that no demo BOM costs more than the item it builds, and no item costs more than it sells
 * for. The sell price keeps the item's markup. No random draws: the rest of the data set is
 * the same as without this step.
 */
export function rollUpCosts(drafts: readonly ItemDraft[]): void {
  const done = new Set<ItemDraft>();
  const visit = (draft: ItemDraft, path: Set<ItemDraft>): number => {
    if (done.has(draft) || draft.bom.length === 0 || path.has(draft)) return draft.cost;
    path.add(draft);
    const parts = draft.bom.reduce(
      (sum, { component, qty }) => sum + visit(component, path) * qty,
      0,
    );
    path.delete(draft);
    const markup = draft.cost > 0 ? draft.price / draft.cost : 1.5;
    draft.cost = round(parts * ASSEMBLY_WORK);
    draft.price = round(draft.cost * markup);
    done.add(draft);
    return draft.cost;
  };
  for (const draft of drafts) visit(draft, new Set());
}
