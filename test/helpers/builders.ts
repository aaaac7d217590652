/**
 * Test data builders for ERP records, with realistic, deterministic defaults that pass the
 * production zod schemas (test/views/builders.unit.test.ts checks that). Override any field:
 * `makeItem({ available: -3, branches: [makeBranch({ name: 'Perth' })] })`.
 */
import type {
  AddressbookEntry,
  BomComponent,
  BranchStock,
  Contact,
  ContactSearchRow,
  Item,
  ItemSearchRow,
  KitEntry,
} from '../../src/erp/schemas.js';
import type { Freshness, Page } from '../../src/lookup/types.js';
import type { WatchSummary } from '../../src/views/watchWords.js';

/** A fixed instant for tests that need a clock: 2026-03-02 10:45:00 UTC. */
export const TEST_NOW = new Date('2026-03-02T10:45:00Z');

export function makeBranch(overrides: Partial<BranchStock> = {}): BranchStock {
  const base = { id: 1, name: 'Sydney', soh: 40, allocated: 10, onorder: 0 };
  const merged = { ...base, ...overrides };
  return { ...merged, available: overrides.available ?? merged.soh - merged.allocated };
}

export function makeBomComponent(overrides: Partial<BomComponent> = {}): BomComponent {
  return {
    inventoryId: 2001,
    code: 'SUB-3',
    description: 'Left bracket sub-assembly',
    qty: 2,
    cost: 4.25,
    has_bom: false,
    ...overrides,
  };
}

export function makeKit(overrides: Partial<KitEntry> = {}): KitEntry {
  return {
    inventoryId: 3001,
    code: 'MOUNT-1',
    description: 'Wall mount',
    qty: 1,
    auto: false,
    groupname: '',
    group_mode: null,
    ...overrides,
  };
}

export function makeItem(overrides: Partial<Item> = {}): Item {
  const branches = overrides.branches ?? [
    makeBranch({ id: 1, name: 'Sydney', soh: 40, allocated: 10, onorder: 0 }),
    makeBranch({ id: 2, name: 'Melbourne', soh: 12, allocated: 0, onorder: 20 }),
    makeBranch({ id: 3, name: 'Brisbane', soh: 0, allocated: 0, onorder: 0 }),
  ];
  const sum = (key: 'soh' | 'allocated' | 'onorder' | 'available') =>
    branches.reduce((total, b) => total + b[key], 0);
  const bom = overrides.bom ?? [];
  const kits = overrides.kits ?? [];
  return {
    id: 1001,
    status: 1,
    status_label: 'Active',
    code: 'WIDGET-9',
    category: 'Widgets',
    description: 'Blue widget assembly',
    cost: 12.5,
    primarysupplier: 'Acme Supplies',
    supplierCodes: [],
    soh: sum('soh'),
    allocated: sum('allocated'),
    onorder: sum('onorder'),
    available: sum('available'),
    has_bom: bom.length > 0,
    has_kit: kits.length > 0,
    ...overrides,
    bom,
    kits,
    branches,
  };
}

export function makeItemRow(overrides: Partial<ItemSearchRow> = {}): ItemSearchRow {
  return {
    id: 1001,
    code: 'WIDGET-9',
    description: 'Blue widget assembly',
    category_name: 'Widgets',
    price: 24.95,
    supplier_name: 'Acme Supplies',
    status_label: 'Active',
    soh: 52,
    allocated: 10,
    onorder: 20,
    available: 42,
    has_bom: false,
    has_kit: false,
    ...overrides,
  };
}

export function makeAddressbookEntry(overrides: Partial<AddressbookEntry> = {}): AddressbookEntry {
  return {
    id: 501,
    salutation: 'Ms',
    name: 'Jane Doe',
    role: 'Purchasing Manager',
    department: 'Purchasing',
    telephone: '+61 2 9876 5321',
    mobile: '0412 345 678',
    email: 'jane.doe@acme.com.au',
    email2: '',
    status_label: 'Active',
    ...overrides,
  };
}

export function makeContact(overrides: Partial<Contact> = {}): Contact {
  return {
    clientid: 42,
    code: 'ACME01',
    company: 'Acme Pty Ltd',
    status: 1,
    status_label: 'Active',
    account_type: 'Customer',
    custgroup_label: 'Wholesale',
    abn: '51 824 753 556',
    address4: 'Sydney',
    state: 'NSW',
    telephone: '02 9000 1234',
    email: 'accounts@acme.com.au',
    salesperson: 'Bob Smith',
    terms: '30 days EOM',
    climit: 5000,
    discount: 5,
    stopcred: 0,
    addressbook: [makeAddressbookEntry()],
    ...overrides,
  };
}

export function makeContactRow(overrides: Partial<ContactSearchRow> = {}): ContactSearchRow {
  return {
    clientid: 42,
    code: 'ACME01',
    company: 'Acme Pty Ltd',
    status: 1,
    status_label: 'Active',
    account_type: 'Customer',
    address4: 'Sydney',
    state: 'NSW',
    telephone: '02 9000 1234',
    email: 'accounts@acme.com.au',
    salesperson: 'Bob Smith',
    addressbook_count: 3,
    ...overrides,
  };
}

/** Fetched 3 minutes before `TEST_NOW`, from the ERP (not cache), not stale. */
export function makeFreshness(overrides: Partial<Freshness> = {}): Freshness {
  return {
    fetchedAt: new Date(TEST_NOW.getTime() - 3 * 60_000),
    fromCache: false,
    stale: false,
    ...overrides,
  };
}

/** A page of rows as the lookup service serves it (10 a page unless told). */
export function makePage<T>(rows: readonly T[], overrides: Partial<Page<T>> = {}): Page<T> {
  return {
    rows,
    offset: 0,
    pageSize: 10,
    hasPrevious: false,
    hasNext: false,
    total: undefined,
    ...overrides,
  };
}

/** A watch as the views get it: WIDGET-9 below 20 at Perth, armed, in #C0123ABC. */
export function makeWatchSummary(overrides: Partial<WatchSummary> = {}): WatchSummary {
  return {
    id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
    channelId: 'C0123ABC',
    creatorId: 'U0123ABC',
    code: 'WIDGET-9',
    itemId: 1001,
    branchName: 'Perth',
    direction: 'below',
    threshold: 20,
    state: 'armed',
    offReason: undefined,
    lastAvailable: undefined,
    snoozedUntil: undefined,
    ...overrides,
  };
}
