/**
 * The sandbox's data model. `record` fields hold exactly what the ERP serialises (the shapes
 * docs/erp-api.md describes, written independently of the app's zod schemas so that the
 * sandbox tests the client rather than agreeing with it); the other fields are what the ERP knows but
 * does not return (filter ids, the sale price, the trading name, the account flags).
 */

export interface BranchStockRecord {
  id: number;
  name: string;
  soh: number;
  allocated: number;
  onorder: number;
  available: number;
}

interface BomComponentRecord {
  inventoryId: number;
  code: string;
  description: string;
  qty: number;
  cost: number;
  /** True iff the component has its own BOM (one more getItem call away). */
  has_bom: boolean;
}

export interface KitEntryRecord {
  inventoryId: number;
  code: string;
  description: string;
  qty: number;
  auto: boolean;
  /** Optional in the spec: some entries omit it, some send it empty. */
  groupname?: string;
  group_mode?: number;
}

export interface ItemRecord {
  id: number;
  status: number;
  status_label: 'Active' | 'Disabled';
  code: string;
  category: string;
  description: string;
  cost: number;
  primarysupplier: string;
  /** Element shape not shown by the spec; the sandbox sends `{ supplier, code }` objects. */
  supplierCodes: Array<{ supplier: string; code: string }>;
  soh: number;
  allocated: number;
  onorder: number;
  available: number;
  has_bom: boolean;
  bom: BomComponentRecord[];
  has_kit: boolean;
  kits: KitEntryRecord[];
  branches: BranchStockRecord[];
}

export interface SandboxItem {
  record: ItemRecord;
  categoryId: number;
  supplierId: number;
  /** The search row's `price` (the full record only carries `cost`). */
  price: number;
}

export interface AddressbookEntryRecord {
  id: number;
  salutation: string;
  name: string;
  role: string;
  department: string;
  telephone: string;
  mobile: string;
  email: string;
  email2: string;
  status_label: string;
}

export type AccountType = 'Customer' | 'Supplier' | 'Customer & Supplier' | 'Unclassified';

export interface ContactRecord {
  clientid: number;
  code: string;
  company: string;
  status: number;
  status_label: 'Active' | 'Suspended';
  account_type: AccountType;
  custgroup_label: 'General' | 'Wholesale';
  abn: string;
  address4: string;
  state: string;
  telephone: string;
  email: string;
  salesperson: string | null;
  terms: string;
  climit: number;
  discount: number;
  stopcred: number;
  addressbook: AddressbookEntryRecord[];
}

export interface SandboxContact {
  record: ContactRecord;
  /** Searched by searchContact but never returned. */
  tradingName: string;
}

export interface NamedId {
  id: number;
  name: string;
}

export interface SandboxData {
  seed: number;
  branches: NamedId[];
  categories: NamedId[];
  suppliers: NamedId[];
  items: SandboxItem[];
  contacts: SandboxContact[];
}

/**
 * The numeric `status` mapping is "not shown" by the spec beyond 1 = Active. The sandbox
 * picks 0 for a disabled item and 2 for a suspended contact.
 */
export const ITEM_STATUS = { Active: 1, Disabled: 0 } as const;
export const CONTACT_STATUS = { Active: 1, Suspended: 2 } as const;
