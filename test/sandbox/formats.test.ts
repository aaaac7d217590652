import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSandboxData, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { authHeaders, rawGet } from './http.js';

let sandbox: RunningSandbox;
const data = generateSandboxData(13);
const parser = new XMLParser({
  isArray: (name) => ['Component', 'Kit', 'Branch', 'Person', 'supplierCode'].includes(name),
  parseTagValue: false,
});
const xmlHeaders = () => ({ ...authHeaders(sandbox), xmlresponse: '' });

beforeAll(async () => {
  sandbox = await startSandbox({ data });
});
afterAll(() => sandbox.close());

describe('sandbox XML answers (Xmlresponse header)', () => {
  it('returns an item as XML with nested BOM, Kits and Branches sections', async () => {
    const response = await rawGet(sandbox, '/api/getItem/WIDGET-9', xmlHeaders());
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    expect(response.text.startsWith('<?xml version="1.0" encoding="UTF-8"?><Item>')).toBe(true);
    const record = data.items.find((i) => i.record.code === 'WIDGET-9')?.record;
    const item = parser.parse(response.text).Item;
    expect(item.code).toBe('WIDGET-9');
    expect(item.available).toBe(String(record?.available));
    expect(item.BOM.Component.map((c: { code: string }) => c.code)).toEqual(
      record?.bom.map((c) => c.code),
    );
    expect(item.Kits.Kit).toHaveLength(record?.kits.length ?? -1);
    expect(item.Branches.Branch).toHaveLength(12);
    expect(item.Branches.Branch[0]).toMatchObject({ id: '1', name: 'Sydney' });
  });

  it('returns a contact as XML with an Addressbook section, escaping hostile text', async () => {
    const response = await rawGet(sandbox, '/api/getContact/EVIL01', xmlHeaders());
    const contact = parser.parse(response.text).Contact;
    const record = data.contacts.find((c) => c.record.code === 'EVIL01')?.record;
    expect(contact.company).toBe(record?.company);
    expect(contact.Addressbook.Person.map((p: { name: string }) => p.name)).toEqual(
      record?.addressbook.map((p) => p.name),
    );
  });

  it('answers searches and errors in JSON even when XML is asked for', async () => {
    const search = await rawGet(sandbox, '/api/searchItems?q=widget', xmlHeaders());
    expect(JSON.parse(search.text).items.length).toBeGreaterThan(0);
    const missing = await rawGet(sandbox, '/api/getItem/NOPE', xmlHeaders());
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).status).toBe(404);
  });
});

describe('sandbox debug flag', () => {
  it('answers unformatted text with the search details and the envelope', async () => {
    const response = await rawGet(sandbox, '/api/searchItems?q=blue+widget&limit=3&debug=1');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const lines = response.text.split('\n');
    expect(lines[0]).toBe('DEBUG searchItems');
    expect(lines).toContain('keywords: ["blue","widget"]');
    const result = lines.find((line) => line.startsWith('result: '))?.slice('result: '.length);
    expect(JSON.parse(result ?? '')).toMatchObject({ query: 'blue widget', limit: 3, offset: 0 });
  });

  it('works for contacts, and is off for debug=0 or debug=false', async () => {
    const contact = await rawGet(sandbox, '/api/searchContact?q=acme&debug');
    expect(contact.text.startsWith('DEBUG searchContact\n')).toBe(true);
    for (const off of ['0', 'false']) {
      const response = await rawGet(sandbox, `/api/searchItems?q=widget&debug=${off}`);
      expect(JSON.parse(response.text).items.length).toBe(20);
    }
  });
});
