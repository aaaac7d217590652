/**
 * The app's ERP client against the sandbox, over real HTTP: every endpoint, the codes that
 * need encoding, a sample of every generated record through the client's schemas, and each
 * sandbox failure mapped to the client's error taxonomy.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErpClient } from '../../src/erp/client.js';
import {
  AuthError,
  BadRequestError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TenantError,
  UnavailableError,
  UnexpectedDataError,
} from '../../src/erp/errors.js';
import { generateSandboxData, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';

const data = generateSandboxData(17);
const HIGH = {
  getItem: 100_000,
  getContact: 100_000,
  searchItems: 100_000,
  searchContact: 100_000,
};
let sandbox: RunningSandbox;
let client: ErpClient;
const clients: ErpClient[] = [];

function clientFor(
  target: RunningSandbox,
  overrides: Partial<ConstructorParameters<typeof ErpClient>[0]> = {},
) {
  const made = new ErpClient({
    baseUrl: target.url,
    ...target.credentials,
    timeoutMs: 2000,
    ...overrides,
  });
  clients.push(made);
  return made;
}

beforeAll(async () => {
  sandbox = await startSandbox({ data, seed: 5, limits: HIGH });
  client = clientFor(sandbox);
});
afterEach(() => {
  sandbox.setFaults({ errorRate: 0, hangRate: 0, malformedRate: 0, driftRate: 0 });
  sandbox.setBehaviour({ retryAfter: false });
  sandbox.resetLimits();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox.close();
});

describe('ErpClient on the sandbox', () => {
  it('gets an item by code and by id, with its BOM, kits and branches', async () => {
    const widget = await client.getItem({ code: 'WIDGET-9' });
    const record = data.items.find((i) => i.record.code === 'WIDGET-9')?.record;
    expect(widget).toMatchObject({
      id: record?.id,
      code: 'WIDGET-9',
      available: record?.available,
    });
    expect(widget.bom.map((c) => c.code)).toEqual(record?.bom.map((c) => c.code));
    expect(widget.kits.map((k) => k.groupname)).toEqual(record?.kits.map((k) => k.groupname ?? ''));
    expect(widget.branches).toHaveLength(12);
    expect((await client.getItem({ id: widget.id })).code).toBe('WIDGET-9');
  });

  it.each(['AB/12', 'A+B-7', '100%-X', 'CAFÉ-01', '..'])(
    'encodes the item code %s',
    async (code) => {
      if (code === '..') {
        await expect(client.getItem({ code })).rejects.toBeInstanceOf(NotFoundError);
      } else {
        expect((await client.getItem({ code })).code).toBe(code);
      }
    },
  );

  it('gets a contact by code and id, including a code with & and /', async () => {
    const acme = await client.getContact({ code: 'ACME01' });
    expect(acme.addressbook.length).toBeGreaterThanOrEqual(3);
    expect((await client.getContact({ id: acme.clientid })).code).toBe('ACME01');
    expect((await client.getContact({ code: 'R&D/01' })).code).toBe('R&D/01');
    await expect(client.getContact({ code: 'NOPE99' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('searches items with keywords, filters and paging', async () => {
    const page = await client.searchItems({ keywords: ['blue', 'widget'], limit: 5, offset: 0 });
    expect(page.items).toHaveLength(5);
    expect(page.count).toBeGreaterThan(5);
    const next = await client.searchItems({ keywords: ['blue', 'widget'], limit: 5, offset: 5 });
    expect(next.items[0]?.id).not.toBe(page.items[0]?.id);
    expect((await client.searchItems({ keywords: ['A+B-7'], offset: 0 })).items[0]?.code).toBe(
      'A+B-7',
    );
    expect((await client.searchItems({ keywords: ['AB/12'], offset: 0 })).items[0]?.code).toBe(
      'AB/12',
    );
    const widgets = await client.searchItems({
      keywords: ['steel'],
      category: 2,
      offset: 0,
      limit: 100,
    });
    expect(widgets.items.every((row) => row.category_name === 'Widgets')).toBe(true);
  });

  it('searches contacts with the type filter', async () => {
    const result = await client.searchContact({ keywords: ['acme'], type: 'supplier', offset: 0 });
    expect(result.contacts.map((row) => row.code).sort()).toEqual(['ACME02', 'ACMEWH01']);
    expect(result.contacts.every((row) => row.account_type !== 'Customer')).toBe(true);
  });

  it('parses a sample of every kind of generated item and contact', async () => {
    const hostile = [
      'EVIL-CHANNEL',
      'EVIL-LINK',
      'LONG-DESC',
      'JP-BOLT-M8',
      'AR-VALVE',
      'EMOJI-KIT',
      'ODD-UNICODE',
      'PLANT-88',
    ];
    const items = [
      ...hostile,
      ...data.items.filter((_, i) => i % 40 === 0).map((i) => i.record.code),
    ];
    for (const code of items) expect((await client.getItem({ code })).code).toBe(code);
    const contacts = [
      'EVIL01',
      'INTL01',
      'BIGCO01',
      'EMPTY01',
      ...data.contacts.filter((_, i) => i % 20 === 0).map((c) => c.record.code),
    ];
    for (const code of contacts) expect((await client.getContact({ code })).code).toBe(code);
  });

  it('maps 401, 403 and 400 to the client errors', async () => {
    await expect(
      clientFor(sandbox, { accessToken: 'wrong-token' }).getItem({ code: 'WIDGET-9' }),
    ).rejects.toBeInstanceOf(AuthError);
    await expect(
      clientFor(sandbox, { tenantId: 'other-tenant' }).getItem({ code: 'WIDGET-9' }),
    ).rejects.toBeInstanceOf(TenantError);
    await expect(client.searchItems({ keywords: [], offset: 0 })).rejects.toBeInstanceOf(
      BadRequestError,
    );
  });

  it('maps 429 (with Retry-After when sent) to RateLimitedError', async () => {
    const limited = await startSandbox({
      data,
      limits: { getItem: 1 },
      behaviour: { retryAfter: true },
    });
    const limitedClient = clientFor(limited);
    try {
      await limitedClient.getItem({ code: 'WIDGET-9' });
      const error = await limitedClient.getItem({ code: 'WIDGET-9' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitedError);
      expect((error as RateLimitedError).retryAfterMs).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('maps injected 500s, malformed bodies, drift and hangs to the client errors', async () => {
    sandbox.setFaults({ errorRate: 1 });
    await expect(client.getItem({ code: 'WIDGET-9' })).rejects.toBeInstanceOf(ServerError);
    sandbox.setFaults({ errorRate: 0, malformedRate: 1 });
    await expect(client.getItem({ code: 'WIDGET-9' })).rejects.toBeInstanceOf(UnexpectedDataError);
    sandbox.setFaults({ malformedRate: 0, driftRate: 1 });
    await expect(client.getContact({ code: 'ACME01' })).rejects.toBeInstanceOf(UnexpectedDataError);
    sandbox.setFaults({ driftRate: 0, hangRate: 1 });
    const impatient = clientFor(sandbox, { timeoutMs: 200 });
    await expect(impatient.getItem({ code: 'WIDGET-9' })).rejects.toBeInstanceOf(UnavailableError);
  });
});
