/**
 * An ERP that knows every code: getItem answers any code with one real sandbox item, its code
 * replaced. For the memory run, where 20,000 distinct codes must each cost a real-sized card
 * (the sandbox holds far fewer items, and its limits would turn most into busy answers).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import type { RunningSandbox } from '../src/sandbox/index.js';

export interface ErpStub {
  url: string;
  calls: number;
  close(): Promise<void>;
}

export async function startErpStub(sandbox: RunningSandbox): Promise<ErpStub> {
  const sample = sandbox.data.items[0]?.record.code ?? 'WIDGET-9';
  const { companyCode, accessToken, tenantId } = sandbox.credentials;
  const answer = await request(`${sandbox.url}/api/getItem/${encodeURIComponent(sample)}`, {
    headers: {
      authorization: `Basic ${Buffer.from(`${companyCode}:${accessToken}`).toString('base64')}`,
      tenantid: tenantId,
    },
  });
  const template = await answer.body.text();
  if (answer.statusCode !== 200) throw new Error(`sandbox getItem ${sample}: ${answer.statusCode}`);
  const stub: ErpStub = { url: '', calls: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    stub.calls += 1;
    const match = /^\/api\/getItem\/([^/?]+)/.exec(req.url ?? '');
    if (!match?.[1]) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"status":404,"error":"Not Found","message":"no such path"}');
      return;
    }
    const code = decodeURIComponent(match[1]);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(template.split(JSON.stringify(sample)).join(JSON.stringify(code)));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return stub;
}
