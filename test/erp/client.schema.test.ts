import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnexpectedDataError } from '../../src/erp/errors.js';
import { ContactSchema, ItemSchema } from '../../src/erp/schemas.js';
import { collectingLogger } from '../helpers/logSink.js';
import { makeClient } from './helpers/client-factory.js';
import { fixture, TestErpServer } from './helpers/test-erp-server.js';

let server: TestErpServer;
const { logger, parsed: logLines } = collectingLogger('warn', 'erp client');

beforeAll(async () => {
  server = await TestErpServer.start();
});
afterAll(async () => {
  await server.close();
});

function itemWith(change: (item: Record<string, unknown>) => void): unknown {
  const item = structuredClone(fixture('item-widget-9.json')) as Record<string, unknown>;
  change(item);
  return item;
}

async function dataFailure(call: Promise<unknown>): Promise<UnexpectedDataError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UnexpectedDataError);
  return error as UnexpectedDataError;
}

describe('schema drift', () => {
  it('names the path of a field with the wrong type', async () => {
    const client = makeClient(server.baseUrl);
    server.answerJson(
      200,
      itemWith((item) => {
        const branches = item.branches as Array<Record<string, unknown>>;
        (branches[3] as Record<string, unknown>).available = '12';
      }),
    );
    const error = await dataFailure(client.getItem({ code: 'WIDGET-9' }));
    expect(error.issues).toEqual([
      { path: 'branches.3.available', message: 'Invalid input: expected number, received string' },
    ]);
    expect(error.message).toBe(
      'ERP returned unexpected data from getItem: branches.3.available: Invalid input: expected number, received string',
    );
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.retryable).toBe(false);
    await client.close();
  });

  it('names a missing field', async () => {
    const client = makeClient(server.baseUrl);
    server.answerJson(
      200,
      itemWith((item) => {
        delete item.soh;
      }),
    );
    const error = await dataFailure(client.getItem({ code: 'WIDGET-9' }));
    expect(error.issues.map((issue) => issue.path)).toEqual(['soh']);
    await client.close();
  });

  it('ignores extra fields', async () => {
    const client = makeClient(server.baseUrl);
    server.answerJson(
      200,
      itemWith((item) => {
        item.warehouse_bin = 'A-12';
        (item.bom as Array<Record<string, unknown>>)[0] = {
          ...(item.bom as Array<Record<string, unknown>>)[0],
          lead_time_days: 4,
        };
      }),
    );
    const item = await client.getItem({ code: 'WIDGET-9' });
    expect(item.code).toBe('WIDGET-9');
    expect(item).not.toHaveProperty('warehouse_bin');
    expect(item).not.toHaveProperty('last_modified');
    await client.close();
  });

  it('summarises many issues in the message and keeps them all in `issues`', async () => {
    const client = makeClient(server.baseUrl);
    server.answerJson(
      200,
      itemWith((item) => {
        for (const field of ['soh', 'allocated', 'onorder', 'available', 'cost']) {
          item[field] = 'n/a';
        }
      }),
    );
    const error = await dataFailure(client.getItem({ code: 'WIDGET-9' }));
    expect(error.issues).toHaveLength(5);
    expect(error.message).toContain('(and 2 more)');
    await client.close();
  });

  it('logs each drifted field once per endpoint, paths only, never values', async () => {
    logLines.length = 0;
    const client = makeClient(server.baseUrl, { logger });
    const contact = structuredClone(fixture('contact-acme.json')) as Record<string, unknown>;
    const people = contact.addressbook as Array<Record<string, unknown>>;
    for (const person of people) person.id = 'Jordan Blake private';
    server.answerJson(200, contact);
    for (let call = 0; call < 3; call += 1) {
      await dataFailure(client.getContact({ code: 'ACME' }));
    }
    const drift = logLines.filter((line) => line.msg === 'ERP schema drift');
    expect(drift).toEqual([
      expect.objectContaining({
        level: 'warn',
        endpoint: 'getContact',
        field: 'addressbook.*.id',
        problem: 'Invalid input: expected number, received string',
      }),
    ]);
    expect(JSON.stringify(logLines)).not.toContain('Jordan Blake');
    await client.close();
  });
});

describe('recorded fixtures', () => {
  it('an item with BOM, kits and branches decodes through the client', async () => {
    const client = makeClient(server.baseUrl);
    server.answerJson(200, fixture('item-widget-9.json'));
    const item = await client.getItem({ code: 'WIDGET-9' });
    expect(item.available).toBe(-4);
    expect(item.bom.map((component) => component.code)).toEqual([
      'BRKT-9',
      'SUB-HUB-9',
      'GREASE-LT',
    ]);
    expect(item.kits[2]?.groupname).toBe('');
    expect(item.branches).toHaveLength(4);
    expect(ItemSchema.parse(fixture('item-widget-9.json'))).toEqual(item);
    await client.close();
  });

  it('a contact with its addressbook; nulls become empty strings', async () => {
    const client = makeClient(server.baseUrl);
    server.answerJson(200, fixture('contact-acme.json'));
    const contact = await client.getContact({ code: 'ACME' });
    expect(contact.account_type).toBe('Customer & Supplier');
    expect(contact.addressbook).toHaveLength(3);
    expect(contact.addressbook[1]?.mobile).toBe('');
    expect(ContactSchema.parse(fixture('contact-acme.json'))).toEqual(contact);
    await client.close();
  });

  it('both search envelopes', async () => {
    const client = makeClient(server.baseUrl);
    server.answerJson(200, fixture('search-items-widget.json'));
    const items = await client.searchItems({ keywords: ['widget', '9'], offset: 0 });
    expect(items.items.map((row) => row.code)).toEqual(['WIDGET-9', 'WIDGET-9-SS']);
    expect(items.count).toBe(2);
    server.answerJson(200, fixture('search-contacts-acme.json'));
    const contacts = await client.searchContact({ keywords: ['acme'], offset: 0 });
    expect(contacts.contacts[1]?.salesperson).toBeNull();
    expect(contacts.contacts[1]?.email).toBe('');
    expect(contacts.contacts[0]?.addressbook_count).toBe(3);
    await client.close();
  });
});
