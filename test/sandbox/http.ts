/**
 * A raw HTTP client for the sandbox contract tests: node:http with no agent, so the path goes
 * out exactly as written (fetch's URL parser would resolve `%2E%2E` and re-encode some
 * characters) and a hanging request never blocks a pooled connection.
 */
import { request } from 'node:http';
import type { RunningSandbox } from '../../src/sandbox/index.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function authHeaders(sandbox: RunningSandbox): Record<string, string> {
  const { companyCode, accessToken, tenantId } = sandbox.credentials;
  return {
    authorization: `Basic ${Buffer.from(`${companyCode}:${accessToken}`).toString('base64')}`,
    tenantid: tenantId,
    accept: 'application/json',
  };
}

export function rawGet(
  sandbox: RunningSandbox,
  path: string,
  headers: Record<string, string> = authHeaders(sandbox),
  method = 'GET',
): Promise<RawResponse> {
  const url = new URL(sandbox.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** GET with the sandbox's credentials, expecting JSON. */
export async function getJson<T = Record<string, unknown>>(
  sandbox: RunningSandbox,
  path: string,
  headers?: Record<string, string>,
): Promise<{ status: number; body: T; headers: RawResponse['headers'] }> {
  const response = await rawGet(sandbox, path, headers);
  return {
    status: response.status,
    body: JSON.parse(response.text) as T,
    headers: response.headers,
  };
}

export interface ItemRow {
  id: number;
  code: string;
  description: string;
  category_name: string;
  supplier_name: string;
  [field: string]: unknown;
}

export interface Envelope<Row> {
  query: string;
  count: number;
  limit: number;
  offset: number;
  items?: Row[];
  contacts?: Row[];
}
