import { ErpClient, type ErpClientOptions } from '../../../src/erp/client.js';

export const TEST_COMPANY = 'ACME01';
/** Long and distinctive, so that a leak anywhere is unmistakable. */
export const TEST_TOKEN = 'tok_live_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
export const TEST_TENANT = 'tenant-42';
export const TEST_BASIC = Buffer.from(`${TEST_COMPANY}:${TEST_TOKEN}`).toString('base64');

export function makeClient(baseUrl: string, overrides: Partial<ErpClientOptions> = {}): ErpClient {
  return new ErpClient({
    baseUrl,
    companyCode: TEST_COMPANY,
    accessToken: TEST_TOKEN,
    tenantId: TEST_TENANT,
    timeoutMs: 2000,
    ...overrides,
  });
}
