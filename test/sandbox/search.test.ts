import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateSandboxData, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { type Envelope, getJson, type ItemRow } from './http.js';

let sandbox: RunningSandbox;
const data = generateSandboxData(5);
const BIG = 100_000;

type ContactRow = {
  code: string;
  company: string;
  account_type: string;
  addressbook_count: number;
};
const items = async (query: string) => {
  const response = await getJson<Envelope<ItemRow>>(sandbox, `/api/searchItems?${query}`);
  return { ...response, rows: response.body.items ?? [] };
};
const contacts = async (query: string) => {
  const response = await getJson<Envelope<ContactRow>>(sandbox, `/api/searchContact?${query}`);
  return { ...response, rows: response.body.contacts ?? [] };
};
const matchesAll = (row: ItemRow, keywords: string[]) =>
  keywords.every((k) => `${row.code}\n${row.description}`.toLowerCase().includes(k.toLowerCase()));

beforeAll(async () => {
  sandbox = await startSandbox({ data, limits: { searchItems: BIG, searchContact: BIG } });
});
beforeEach(() => sandbox.setBehaviour({ countMeaning: 'total', requireQuery: true }));
afterAll(() => sandbox.close());

describe('sandbox searchItems', () => {
  it('requires every keyword in the code or description, case-insensitively', async () => {
    const { status, body, rows } = await items('q=BLUE+widget&limit=100&offset=0');
    expect(status).toBe(200);
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) expect(matchesAll(row, ['blue', 'widget'])).toBe(true);
    const expected = data.items.filter((i) =>
      matchesAll(i.record as unknown as ItemRow, ['blue', 'widget']),
    );
    expect(body.count).toBe(expected.length);
  });

  it('splits keywords on + and spaces alike', async () => {
    const codes = async (q: string) => (await items(`q=${q}&limit=100`)).rows.map((r) => r.code);
    const plus = await codes('steel%2Bbolt');
    expect(plus.length).toBeGreaterThan(0);
    expect(await codes('steel+bolt')).toEqual(plus);
    expect(await codes('steel%20%20bolt')).toEqual(plus);
  });

  it('ranks the exact code first, then code prefixes, then the rest', async () => {
    const { rows } = await items('q=WIDGET-9&limit=100');
    expect(rows[0]?.code).toBe('WIDGET-9');
    const prefixed = rows.map((r) => r.code.toLowerCase().startsWith('widget-9'));
    const firstOther = prefixed.indexOf(false);
    expect(firstOther).toBeGreaterThan(3);
    expect(prefixed.slice(firstOther).every((p) => !p)).toBe(true);
    // A description-only match ranks after every code match.
    expect(rows.slice(firstOther).some((r) => !r.code.toLowerCase().includes('widget-9'))).toBe(
      true,
    );
    expect((await items('q=widget-9&limit=1')).rows[0]?.code).toBe('WIDGET-9');
  });

  it('finds codes with special characters by their exact code', async () => {
    for (const code of ['AB/12', 'A+B-7', '100%-X', 'CAFÉ-01']) {
      expect((await items(`q=${encodeURIComponent(code)}&limit=5`)).rows[0]?.code).toBe(code);
    }
  });

  it('filters by category id and supplier id', async () => {
    const widgets = data.categories.find((c) => c.name === 'Widgets');
    const supplier = data.suppliers[3];
    const byCategory = await items(`q=a&category=${widgets?.id}&limit=100`);
    expect(byCategory.rows.length).toBeGreaterThan(10);
    expect(byCategory.rows.every((r) => r.category_name === 'Widgets')).toBe(true);
    const bySupplier = await items(`q=e&supplier=${supplier?.id}&limit=100`);
    expect(bySupplier.rows.length).toBeGreaterThan(0);
    expect(bySupplier.rows.every((r) => r.supplier_name === supplier?.name)).toBe(true);
    const both = await items(`q=e&supplier=${supplier?.id}&category=${widgets?.id}&limit=100`);
    expect(
      both.rows.every((r) => r.supplier_name === supplier?.name && r.category_name === 'Widgets'),
    ).toBe(true);
    expect((await items(`q=a&supplier=${widgets?.id}`)).rows).toEqual([]);
  });

  it('pages with limit and offset, default limit 20 and offset 0', async () => {
    const first = await items('q=widget');
    expect(first.body).toMatchObject({ query: 'widget', limit: 20, offset: 0 });
    expect(first.rows).toHaveLength(20);
    const all = (await items('q=widget&limit=21&offset=0')).rows.map((r) => r.id);
    const pages = [0, 7, 14].map(
      async (offset) => (await items(`q=widget&limit=7&offset=${offset}`)).rows,
    );
    expect((await Promise.all(pages)).flat().map((r) => r.id)).toEqual(all);
    expect((await items('q=widget&limit=100')).rows).toHaveLength(100);
    const beyond = await items('q=widget&offset=99999');
    expect(beyond.status).toBe(200);
    expect(beyond.rows).toEqual([]);
  });

  it('reports count as the total or as the page size, as configured', async () => {
    const total = await items('q=widget&limit=5');
    expect(total.body.count).toBeGreaterThan(5);
    sandbox.setBehaviour({ countMeaning: 'page' });
    expect((await items('q=widget&limit=5')).body.count).toBe(5);
    expect((await items('q=widget&limit=5&offset=99999')).body.count).toBe(0);
  });

  it.each([
    'q=x&limit=101',
    'q=x&limit=0',
    'q=x&limit=-1',
    'q=x&limit=abc',
    'q=x&limit=',
    'q=x&offset=-1',
    'q=x&offset=1.5',
    'q=x&category=widgets',
    'q=x&category=-2',
    'q=x&supplier=1.5',
    '',
    'q=',
    'q=+++',
    'limit=5',
  ])('answers 400 for %j', async (query) => {
    const { status, body } = await items(query);
    expect(status).toBe(400);
    expect(body).toMatchObject({ status: 400, error: 'Bad Request' });
  });

  it('can treat a missing q as "everything the filters allow"', async () => {
    sandbox.setBehaviour({ requireQuery: false });
    const { status, body, rows } = await items('category=1&limit=100');
    expect(status).toBe(200);
    expect(body.query).toBe('');
    expect(rows.length).toBeGreaterThan(50);
    expect(rows.every((r) => r.category_name === data.categories[0]?.name)).toBe(true);
  });

  it('returns search rows with exactly the spec fields', async () => {
    const { rows } = await items('q=WIDGET-9&limit=1');
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(
      [
        'id',
        'code',
        'description',
        'category_name',
        'price',
        'supplier_name',
        'status_label',
        'soh',
        'allocated',
        'onorder',
        'available',
        'has_bom',
        'has_kit',
      ].sort(),
    );
  });
});

describe('sandbox searchContact', () => {
  it('matches company names, codes, people and trading names, accent- and case-insensitively', async () => {
    const acme = await contacts('q=acme');
    expect(
      acme.rows
        .map((r) => r.code)
        .slice(0, 3)
        .sort(),
    ).toEqual(['ACME01', 'ACME02', 'ACMEWH01']);
    expect((await contacts('q=jane+citizen')).rows.map((r) => r.code)).toContain('ACME01');
    expect((await contacts('q=JOSE%20munoz')).rows.map((r) => r.code)).toContain('ACME01');
    // "Осака Трейдинг" is INTL01's trading name only (not its company, code or people).
    expect((await contacts(`q=${encodeURIComponent('трейдинг')}`)).rows.map((r) => r.code)).toEqual(
      ['INTL01'],
    );
    expect((await contacts('q=ACME01')).rows[0]?.code).toBe('ACME01');
  });

  it('requires every keyword to match somewhere', async () => {
    expect((await contacts('q=acme+zzzzqqq')).rows).toEqual([]);
    expect((await contacts('q=acme+logistics')).rows.map((r) => r.code)).toEqual(['ACME02']);
  });

  it('filters client and supplier account types, both including Customer & Supplier', async () => {
    const clients = await contacts('q=a&type=client&limit=100');
    const suppliers = await contacts('q=a&type=supplier&limit=100');
    expect(new Set(clients.rows.map((r) => r.account_type))).toEqual(
      new Set(['Customer', 'Customer & Supplier']),
    );
    expect(new Set(suppliers.rows.map((r) => r.account_type))).toEqual(
      new Set(['Supplier', 'Customer & Supplier']),
    );
    expect((await contacts('q=a&type=customer')).status).toBe(400);
  });

  it('returns rows with addressbook_count and the envelope', async () => {
    const { body, rows } = await contacts('q=big+mining&limit=5&offset=0');
    expect(body).toMatchObject({ query: 'big mining', limit: 5, offset: 0, count: 1 });
    expect(rows[0]).toMatchObject({ code: 'BIGCO01', addressbook_count: 40 });
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(
      [
        'clientid',
        'code',
        'company',
        'status',
        'status_label',
        'account_type',
        'address4',
        'state',
        'telephone',
        'email',
        'salesperson',
        'addressbook_count',
      ].sort(),
    );
    expect((await contacts('q=a&limit=101')).status).toBe(400);
    expect((await contacts('')).status).toBe(400);
  });
});

describe('sandbox examples', () => {
  it('names codes that exist and searches that find something', async () => {
    const examples = sandbox.examples();
    expect(examples.bomItemCodes.length).toBeGreaterThanOrEqual(4);
    for (const code of [...examples.itemCodes, ...examples.bomItemCodes]) {
      expect(
        data.items.some((i) => i.record.code === code),
        code,
      ).toBe(true);
    }
    for (const code of examples.contactCodes) {
      expect(
        data.contacts.some((c) => c.record.code === code),
        code,
      ).toBe(true);
    }
    for (const q of examples.itemSearches) {
      expect((await items(`q=${encodeURIComponent(q)}`)).rows.length, q).toBeGreaterThan(0);
    }
    for (const q of examples.contactSearches) {
      expect((await contacts(`q=${encodeURIComponent(q)}`)).rows.length, q).toBeGreaterThan(0);
    }
  });
});
