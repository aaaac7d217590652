import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSandboxData, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { authHeaders, getJson, rawGet } from './http.js';

const ITEM_FIELDS = [
  'id',
  'status',
  'status_label',
  'code',
  'category',
  'description',
  'cost',
  'primarysupplier',
  'supplierCodes',
  'soh',
  'allocated',
  'onorder',
  'available',
  'has_bom',
  'bom',
  'has_kit',
  'kits',
  'branches',
].sort();
const CONTACT_FIELDS = [
  'clientid',
  'code',
  'company',
  'status',
  'status_label',
  'account_type',
  'custgroup_label',
  'abn',
  'address4',
  'state',
  'telephone',
  'email',
  'salesperson',
  'terms',
  'climit',
  'discount',
  'stopcred',
  'addressbook',
].sort();

let sandbox: RunningSandbox;
const data = generateSandboxData(11);
const itemId = (code: string) => data.items.find((i) => i.record.code === code)?.record.id;

beforeAll(async () => {
  sandbox = await startSandbox({ data, limits: { getItem: 10_000, getContact: 10_000 } });
});
afterAll(() => sandbox.close());

describe('sandbox getItem', () => {
  it('returns the full record by exact code, with exactly the spec fields', async () => {
    const { status, body, headers } = await getJson(sandbox, '/api/getItem/WIDGET-9');
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(body).sort()).toEqual(ITEM_FIELDS);
    expect(body.code).toBe('WIDGET-9');
    expect(body.available).toBe((body.soh as number) - (body.allocated as number));
  });

  it('matches target=id against the internal id, and target=code like the default', async () => {
    const id = itemId('WIDGET-9');
    const byId = await getJson(sandbox, `/api/getItem/${id}?target=id`);
    expect(byId.status).toBe(200);
    expect(byId.body.code).toBe('WIDGET-9');
    expect((await getJson(sandbox, '/api/getItem/WIDGET-9?target=code')).body.id).toBe(id);
    // Without target=id, a number is a code, and no item has that code.
    expect((await getJson(sandbox, `/api/getItem/${id}`)).status).toBe(404);
  });

  it.each(['abc', '12.5', '-3', '1e3', ''])('answers 400 for target=id with %j', async (value) => {
    const { status, body } = await getJson(sandbox, `/api/getItem/${value}?target=id`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ status: 400, error: 'Bad Request' });
    expect(typeof body.message).toBe('string');
  });

  it('answers 400 for an unknown target and for a missing code', async () => {
    expect((await getJson(sandbox, '/api/getItem/WIDGET-9?target=name')).status).toBe(400);
    expect((await getJson(sandbox, '/api/getItem/')).status).toBe(400);
    expect((await getJson(sandbox, '/api/getItem')).status).toBe(400);
  });

  it('answers 404 with a JSON error body for unknown codes and ids, case-sensitively', async () => {
    const missing = await getJson(sandbox, '/api/getItem/NO-SUCH-ITEM');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status: 404, error: 'Not Found', message: 'Item not found' });
    expect((await getJson(sandbox, '/api/getItem/widget-9')).status).toBe(404);
    expect((await getJson(sandbox, '/api/getItem/999999999?target=id')).status).toBe(404);
  });

  it.each(['AB/12', 'A+B-7', '100%-X', 'CAFÉ-01'])(
    'finds %s sent percent-encoded',
    async (code) => {
      const { status, body } = await getJson(sandbox, `/api/getItem/${encodeURIComponent(code)}`);
      expect(status).toBe(200);
      expect(body.code).toBe(code);
    },
  );

  it('does not decode codes that were not encoded', async () => {
    // An unencoded slash is another path; an unencoded % is malformed; `+` in a path is literal.
    expect((await rawGet(sandbox, '/api/getItem/AB/12')).status).toBe(404);
    expect((await rawGet(sandbox, '/api/getItem/100%-X')).status).toBe(400);
    expect((await getJson(sandbox, '/api/getItem/A+B-7')).body.code).toBe('A+B-7');
    // Dot segments arrive as a code, never as path navigation.
    expect((await getJson(sandbox, '/api/getItem/%2E%2E')).body.message).toBe('Item not found');
    // Decomposed É (NFD) is not the stored NFC code.
    expect(
      (await rawGet(sandbox, `/api/getItem/${encodeURIComponent('CAFÉ-01'.normalize('NFD'))}`))
        .status,
    ).toBe(404);
  });
});

describe('sandbox getContact', () => {
  it('returns the full record with its addressbook', async () => {
    const { status, body } = await getJson(sandbox, '/api/getContact/ACME01');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(CONTACT_FIELDS);
    expect(body.company).toMatch(/^Acme /);
    const people = body.addressbook as Array<Record<string, unknown>>;
    expect(people.length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(people[0] ?? {}).sort()).toEqual(
      [
        'id',
        'salutation',
        'name',
        'role',
        'department',
        'telephone',
        'mobile',
        'email',
        'email2',
        'status_label',
      ].sort(),
    );
  });

  it('matches target=id, encodes codes, and answers 404 and 400 like getItem', async () => {
    const acme = data.contacts.find((c) => c.record.code === 'ACME01')?.record.clientid;
    expect((await getJson(sandbox, `/api/getContact/${acme}?target=id`)).body.code).toBe('ACME01');
    expect(
      (await getJson(sandbox, `/api/getContact/${encodeURIComponent('R&D/01')}`)).body.code,
    ).toBe('R&D/01');
    const missing = await getJson(sandbox, '/api/getContact/NOPE99');
    expect(missing).toMatchObject({ status: 404, body: { message: 'Contact not found' } });
    expect((await getJson(sandbox, '/api/getContact/x?target=id')).status).toBe(400);
  });

  it('sends a null salesperson as null and a suspended status', async () => {
    const { body } = await getJson(sandbox, '/api/getContact/ACMEWH01');
    expect(body.salesperson).toBeNull();
    expect(body.status_label).toBe('Suspended');
    expect(body.status).not.toBe(1);
  });
});

describe('sandbox routing', () => {
  it('answers 404 for unknown paths and 405 for other methods', async () => {
    expect((await rawGet(sandbox, '/api/getItems/WIDGET-9')).status).toBe(404);
    expect((await rawGet(sandbox, '/api/searchItems/extra?q=x')).status).toBe(404);
    expect((await rawGet(sandbox, '/')).status).toBe(404);
    const post = await rawGet(sandbox, '/api/getItem/WIDGET-9', authHeaders(sandbox), 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET');
  });
});
