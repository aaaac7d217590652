import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ErpClient } from '../../src/erp/client.js';
import { makeClient, TEST_BASIC, TEST_TENANT } from './helpers/client-factory.js';
import { fixture, TestErpServer } from './helpers/test-erp-server.js';

let server: TestErpServer;
let client: ErpClient;

beforeAll(async () => {
  server = await TestErpServer.start();
  client = makeClient(server.baseUrl);
});
afterAll(async () => {
  await client.close();
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

describe('request lines', () => {
  it('getItem by code', async () => {
    server.answerJson(200, fixture('item-widget-9.json'));
    const item = await client.getItem({ code: 'WIDGET-9' });
    expect(server.lastRequest.method).toBe('GET');
    expect(server.lastRequest.url).toBe('/api/getItem/WIDGET-9');
    expect(item.code).toBe('WIDGET-9');
  });

  it('getItem by id sends target=id', async () => {
    server.answerJson(200, fixture('item-widget-9.json'));
    await client.getItem({ id: 10482 });
    expect(server.lastRequest.url).toBe('/api/getItem/10482?target=id');
  });

  it('getContact by code and by id', async () => {
    server.answerJson(200, fixture('contact-acme.json'));
    await client.getContact({ code: 'ACME' });
    expect(server.lastRequest.url).toBe('/api/getContact/ACME');
    await client.getContact({ id: 3307 });
    expect(server.lastRequest.url).toBe('/api/getContact/3307?target=id');
  });

  it('searchItems with every parameter, keywords joined by a literal +', async () => {
    server.answerJson(200, fixture('search-items-widget.json'));
    await client.searchItems({
      keywords: ['widget', '9 mm', 'A+B', 'café'],
      category: 7,
      supplier: 12,
      limit: 50,
      offset: 100,
    });
    expect(server.lastRequest.url).toBe(
      '/api/searchItems?q=widget+9%20mm+A%2BB+caf%C3%A9&category=7&supplier=12&limit=50&offset=100',
    );
  });

  it('searchItems always sends offset, and no q without keywords', async () => {
    server.answerJson(200, fixture('search-items-widget.json'));
    await client.searchItems({ keywords: [], offset: 0 });
    expect(server.lastRequest.url).toBe('/api/searchItems?offset=0');
    await client.searchItems({ keywords: [''], category: 3, offset: 0 });
    expect(server.lastRequest.url).toBe('/api/searchItems?category=3&offset=0');
  });

  it('searchContact with every parameter', async () => {
    server.answerJson(200, fixture('search-contacts-acme.json'));
    await client.searchContact({
      keywords: ['acme', 'blake'],
      type: 'supplier',
      limit: 5,
      offset: 10,
    });
    expect(server.lastRequest.url).toBe(
      '/api/searchContact?q=acme+blake&type=supplier&limit=5&offset=10',
    );
    await client.searchContact({ keywords: [], type: 'client', offset: 0 });
    expect(server.lastRequest.url).toBe('/api/searchContact?type=client&offset=0');
  });
});

describe('headers', () => {
  it('sends exactly Accept, Tenantid and Basic auth; never Xmlresponse or debug', async () => {
    server.answerJson(200, fixture('item-widget-9.json'));
    await client.getItem({ code: 'WIDGET-9' });
    const { headers, headerNames, url } = server.lastRequest;
    expect(headers.accept).toBe('application/json');
    expect(headers.tenantid).toBe(TEST_TENANT);
    expect(headers.authorization).toBe(`Basic ${TEST_BASIC}`);
    expect(headerNames).not.toContain('xmlresponse');
    expect(headerNames).not.toContain('debug');
    expect(url).not.toContain('debug');
  });

  it('sends the credentials on every endpoint', async () => {
    server.answerJson(200, fixture('search-contacts-acme.json'));
    await client.searchContact({ keywords: ['acme'], offset: 0 });
    expect(server.lastRequest.headers.authorization).toBe(`Basic ${TEST_BASIC}`);
    expect(server.lastRequest.headers.tenantid).toBe(TEST_TENANT);
  });
});

describe('codes reach the ERP as one intact path segment', () => {
  const codes = [
    'AB/12',
    'A+B-7',
    '100%-X',
    'CAFÉ-01',
    '../x',
    '.',
    '..',
    'a?b#c',
    'sp ace',
    '%2F',
    '..%2F',
    '日本-3',
  ];
  it.each(codes)('%s', async (code) => {
    server.answerJson(200, fixture('item-widget-9.json'));
    await client.getItem({ code });
    const url = server.lastRequest.url;
    expect(url.startsWith('/api/getItem/')).toBe(true);
    const segment = url.slice('/api/getItem/'.length);
    expect(segment).not.toMatch(/[/?#]/);
    expect(decodeURIComponent(segment)).toBe(code);
  });

  it('encodes dot-only segments as %2E so no URL resolution can drop them', async () => {
    server.answerJson(200, fixture('contact-acme.json'));
    await client.getContact({ code: '..' });
    expect(server.lastRequest.url).toBe('/api/getContact/%2E%2E');
  });
});

describe('base URL', () => {
  it('keeps a path prefix, with or without a trailing slash', async () => {
    server.answerJson(200, fixture('item-widget-9.json'));
    for (const base of [`${server.baseUrl}/v2/`, `${server.baseUrl}/v2`]) {
      const prefixed = makeClient(base);
      await prefixed.getItem({ code: '..' });
      expect(server.lastRequest.url).toBe('/v2/api/getItem/%2E%2E');
      await prefixed.close();
    }
  });
});

describe('keep-alive', () => {
  it('reuses pooled connections instead of opening one per call', async () => {
    const ports = new Set<number | undefined>();
    server.answer((request, response) => {
      ports.add(request.socket.remotePort);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(fixture('item-widget-9.json')));
    });
    const fresh = makeClient(server.baseUrl);
    for (let index = 0; index < 6; index += 1) await fresh.getItem({ code: 'WIDGET-9' });
    await fresh.close();
    // The pool may open a second socket while the first is still being released; never six.
    expect(ports.size).toBeLessThanOrEqual(2);
  });
});

describe('injected dispatcher', () => {
  it('is used for calls and left open by close()', async () => {
    const agent = new Agent({ connections: 1 });
    server.answerJson(200, fixture('item-widget-9.json'));
    const first = makeClient(server.baseUrl, { dispatcher: agent });
    await first.getItem({ code: 'WIDGET-9' });
    await first.close();
    expect(agent.closed).toBe(false);
    const second = makeClient(server.baseUrl, { dispatcher: agent });
    await second.getItem({ code: 'WIDGET-9' });
    expect(server.requests).toHaveLength(2);
    await agent.close();
  });
});

describe('credentialKey', () => {
  it('is stable, differs by company, tenant and base URL, and hides the token', () => {
    const base = 'https://erp.example.com/v2/';
    const key = makeClient(base).credentialKey;
    expect(makeClient(base).credentialKey).toBe(key);
    expect(makeClient(base, { accessToken: 'another-token-value' }).credentialKey).toBe(key);
    expect(makeClient(base, { companyCode: 'OTHER' }).credentialKey).not.toBe(key);
    expect(makeClient(base, { tenantId: 'tenant-43' }).credentialKey).not.toBe(key);
    expect(makeClient('https://erp.example.com/v3/').credentialKey).not.toBe(key);
    expect(key).not.toContain('ACME01');
    expect(key).toMatch(/^erp:[0-9a-f]{32}$/);
  });
});
