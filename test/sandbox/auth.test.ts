import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  generateSandboxData,
  type RunningSandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { authHeaders, rawGet } from './http.js';

let sandbox: RunningSandbox;
const data = generateSandboxData(3);
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ENDPOINTS = [
  '/api/getItem/WIDGET-9',
  '/api/getContact/ACME01',
  '/api/searchItems?q=widget',
  '/api/searchContact?q=acme',
];

beforeAll(async () => {
  sandbox = await startSandbox({
    data,
    credentials: { companyCode: 'ACMECO', accessToken: 'tok:en with colon', tenantId: 'tenant-42' },
  });
});
afterAll(() => sandbox.close());

describe('sandbox authentication and tenant', () => {
  it('uses the configured credentials, or the exported defaults', async () => {
    expect(sandbox.credentials.companyCode).toBe('ACMECO');
    const plain = await startSandbox({ data });
    try {
      expect(plain.credentials).toEqual(DEFAULT_SANDBOX_CREDENTIALS);
      expect((await rawGet(plain, '/api/getItem/WIDGET-9')).status).toBe(200);
    } finally {
      await plain.close();
    }
  });

  it.each(ENDPOINTS)('accepts valid Basic credentials and tenant on %s', async (path) => {
    expect((await rawGet(sandbox, path)).status).toBe(200);
  });

  it.each([
    ['no Authorization header', undefined],
    ['a wrong token', basic('ACMECO', 'wrong')],
    ['a wrong company code', basic('OTHER', 'tok:en with colon')],
    ['a Bearer token', 'Bearer tok:en with colon'],
    ['garbage', 'Basic !!!'],
  ])('answers 401 for %s', async (_label, authorization) => {
    const headers: Record<string, string> = { tenantid: 'tenant-42' };
    if (authorization) headers.authorization = authorization;
    for (const path of ENDPOINTS) {
      const response = await rawGet(sandbox, path, headers);
      expect(response.status).toBe(401);
      expect(JSON.parse(response.text)).toMatchObject({ status: 401 });
      expect(response.headers['www-authenticate']).toMatch(/^Basic/);
    }
  });

  it('answers 403 for a missing or wrong Tenantid once authenticated', async () => {
    const { tenantid: _ignored, ...withoutTenant } = authHeaders(sandbox);
    for (const path of ENDPOINTS) {
      expect((await rawGet(sandbox, path, withoutTenant)).status).toBe(403);
      expect(
        (await rawGet(sandbox, path, { ...withoutTenant, tenantid: 'tenant-43' })).status,
      ).toBe(403);
    }
  });

  it('checks authentication before the tenant and before the parameters', async () => {
    const headers = { authorization: basic('ACMECO', 'wrong'), tenantid: 'nope' };
    expect((await rawGet(sandbox, '/api/searchItems?limit=500', headers)).status).toBe(401);
    const { tenantid: _ignored, ...withoutTenant } = authHeaders(sandbox);
    expect((await rawGet(sandbox, '/api/searchItems?limit=500', withoutTenant)).status).toBe(403);
  });
});
