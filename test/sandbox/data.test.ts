import { describe, expect, it } from 'vitest';
import { bomDepth, generateSandboxData, type SandboxItem } from '../../src/sandbox/index.js';

const data = generateSandboxData(7);
const byCode = new Map(data.items.map((item) => [item.record.code, item]));
const item = (code: string): SandboxItem => {
  const found = byCode.get(code);
  if (!found) throw new Error(`no item ${code}`);
  return found;
};
const close = (a: number, b: number) => Math.abs(a - b) < 1e-6;

describe('sandbox data set', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(generateSandboxData(7)).toEqual(data);
    const other = generateSandboxData(8);
    expect(other.items.map((i) => i.record.code)).not.toEqual(data.items.map((i) => i.record.code));
  });

  it('has the advertised size and unique codes and ids', () => {
    expect(data.items.length).toBeGreaterThanOrEqual(1900);
    expect(data.items.length).toBeLessThanOrEqual(2100);
    expect(data.categories.length).toBeGreaterThanOrEqual(12);
    expect(data.suppliers.length).toBe(40);
    expect(data.branches.length).toBe(12);
    expect(data.contacts.length).toBeGreaterThanOrEqual(550);
    expect(new Set(data.items.map((i) => i.record.code)).size).toBe(data.items.length);
    expect(new Set(data.items.map((i) => i.record.id)).size).toBe(data.items.length);
    expect(new Set(data.contacts.map((c) => c.record.code)).size).toBe(data.contacts.length);
    expect(new Set(data.contacts.map((c) => c.record.clientid)).size).toBe(data.contacts.length);
    const people = data.contacts.flatMap((c) => c.record.addressbook.map((p) => p.id));
    expect(new Set(people).size).toBe(people.length);
  });

  it('keeps available = soh - allocated, totals = sum of branches, every branch listed', () => {
    const branchIds = data.branches.map((b) => b.id);
    for (const { record } of data.items) {
      expect(close(record.available, record.soh - record.allocated), record.code).toBe(true);
      expect(record.branches.map((b) => b.id)).toEqual(branchIds);
      for (const field of ['soh', 'allocated', 'onorder'] as const) {
        const sum = record.branches.reduce((total, b) => total + b[field], 0);
        expect(close(sum, record[field]), `${record.code} ${field}`).toBe(true);
      }
      for (const b of record.branches) expect(close(b.available, b.soh - b.allocated)).toBe(true);
    }
  });

  it('has over-allocated, disabled, never-stocked and fractional-stock items', () => {
    const records = data.items.map((i) => i.record);
    expect(records.filter((r) => r.available < 0).length).toBeGreaterThan(20);
    expect(
      records.filter((r) => r.status_label === 'Disabled' && r.status !== 1).length,
    ).toBeGreaterThan(20);
    expect(records.every((r) => (r.status === 1) === (r.status_label === 'Active'))).toBe(true);
    expect(
      records.filter((r) => r.branches.every((b) => b.soh === 0 && b.onorder === 0)).length,
    ).toBeGreaterThan(20);
    expect(records.some((r) => !Number.isInteger(r.soh))).toBe(true);
  });

  it('builds BOMs at most 4 levels deep, with consistent flags and components', () => {
    const depths = data.items.map((i) => bomDepth(i.record.code, byCode));
    expect(Math.max(...depths)).toBe(4);
    for (const { record } of data.items) {
      expect(record.has_bom).toBe(record.bom.length > 0);
      expect(record.has_kit).toBe(record.kits.length > 0);
      for (const component of record.bom) {
        const target = item(component.code).record;
        expect(component.inventoryId).toBe(target.id);
        expect(component.description).toBe(target.description);
        expect(component.cost).toBe(target.cost);
        expect(component.has_bom, `${record.code} > ${component.code}`).toBe(target.bom.length > 0);
      }
      for (const kit of record.kits) expect(item(kit.code).record.id).toBe(kit.inventoryId);
    }
    expect(data.items.some((i) => i.record.bom.length >= 80)).toBe(true);
    expect(data.items.some((i) => i.record.bom.some((c) => !Number.isInteger(c.qty)))).toBe(true);
  });

  it('has kits with named, empty and absent group names', () => {
    const kits = data.items.flatMap((i) => i.record.kits);
    expect(kits.some((k) => k.groupname !== undefined && k.groupname.length > 0)).toBe(true);
    expect(kits.some((k) => k.groupname === '')).toBe(true);
    expect(kits.some((k) => !('groupname' in k))).toBe(true);
    expect(kits.some((k) => k.auto) && kits.some((k) => !k.auto)).toBe(true);
  });

  it('has the well-known items', () => {
    const widget = item('WIDGET-9').record;
    expect(widget.status_label).toBe('Active');
    expect(widget.branches.filter((b) => b.soh > 0).length).toBeGreaterThanOrEqual(3);
    expect(bomDepth('WIDGET-9', byCode)).toBeGreaterThanOrEqual(2);
    expect(widget.has_kit).toBe(true);
    for (const code of ['AB/12', 'A+B-7', '100%-X', 'CAFÉ-01', 'PLANT-88'])
      expect(byCode.has(code)).toBe(true);
    expect(item('CAFÉ-01').record.code).toBe('CAFÉ-01'.normalize('NFC'));
  });

  it('has hostile and non-Latin text', () => {
    const texts = [
      ...data.items.map((i) => i.record.description),
      ...data.contacts.flatMap((c) => [
        c.record.company,
        ...c.record.addressbook.map((p) => p.name),
      ]),
    ].join('\n');
    for (const needle of [
      '<!channel>',
      '<!here>',
      '<@U123>',
      '<https://evil.example|click>',
      '*',
      '_',
      '~',
      '&',
    ]) {
      expect(texts).toContain(needle);
    }
    expect(texts).toMatch(/\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}/u);
    expect(texts).toMatch(/\p{Script=Arabic}/u);
    expect(texts).toMatch(/\p{Script=Cyrillic}/u);
    expect(texts).toMatch(/\p{Extended_Pictographic}/u);
    expect(data.items.some((i) => i.record.description.length > 3000)).toBe(true);
  });

  it('has contacts of every kind with 0 to 40 people', () => {
    const records = data.contacts.map((c) => c.record);
    const counts = records.map((r) => r.addressbook.length);
    expect(Math.min(...counts)).toBe(0);
    expect(Math.max(...counts)).toBe(40);
    expect(new Set(records.map((r) => r.account_type))).toEqual(
      new Set(['Customer', 'Supplier', 'Customer & Supplier', 'Unclassified']),
    );
    expect(records.some((r) => r.status_label === 'Suspended')).toBe(true);
    expect(records.some((r) => r.salesperson === null)).toBe(true);
    const acme = records.find((r) => r.code === 'ACME01');
    expect(acme?.company).toMatch(/^Acme /);
    expect(acme?.addressbook.length).toBeGreaterThanOrEqual(3);
    expect(acme?.addressbook.every((p) => p.email.includes('@') && p.telephone !== '')).toBe(true);
  });
});

describe('sandbox data a new user meets', () => {
  it('costs no demo item more than it sells for, and no BOM more than the item it builds', () => {
    for (const seed of [7, 8]) {
      for (const entry of generateSandboxData(seed).items) {
        const { record } = entry;
        expect(record.cost, record.code).toBeLessThanOrEqual(entry.price);
        const parts = record.bom.reduce((sum, c) => sum + c.cost * c.qty, 0);
        expect(parts, record.code).toBeLessThanOrEqual(record.cost + 0.01);
      }
    }
  });

  it('has the ids the examples use, for any seed: /stock id:123 and /contact id:123', () => {
    for (const seed of [7, 8]) {
      const other = generateSandboxData(seed);
      expect(other.items.find((i) => i.record.id === 123)?.record.code).toBe('WIDGET-9');
      expect(other.contacts.find((c) => c.record.clientid === 123)?.record.code).toBe('ACME01');
    }
  });
});
