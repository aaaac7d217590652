import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErpClient } from '../../src/erp/client.js';
import { ErpError } from '../../src/erp/errors.js';
import { scrubSecrets } from '../../src/log/logger.js';
import { makeClient, TEST_BASIC, TEST_TOKEN } from './helpers/client-factory.js';
import { closedPort, type Handler, TestErpServer } from './helpers/test-erp-server.js';

let server: TestErpServer;
let client: ErpClient;

beforeAll(async () => {
  server = await TestErpServer.start();
  client = makeClient(server.baseUrl, { timeoutMs: 200 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** An ERP that echoes the credentials it received, the worst case for leaks. */
function echoing(status: number, contentType = 'text/plain'): Handler {
  return (request, response) => {
    response.writeHead(status, { 'content-type': contentType });
    response.end(`auth=${request.headers.authorization} token=${TEST_TOKEN}`);
  };
}

/** Every way an error can be turned into text, down the cause chain. */
function renderings(error: unknown): string[] {
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 10; depth += 1) {
    texts.push(String(current), JSON.stringify(current), inspect(current, { depth: null }));
    if (current instanceof Error) texts.push(current.message, current.stack ?? '');
    current = (current as { cause?: unknown }).cause;
  }
  return texts;
}

function expectNoSecret(error: unknown): void {
  expect(error).toBeInstanceOf(ErpError);
  for (const text of renderings(error)) {
    expect(text).not.toContain(TEST_TOKEN);
    expect(text).not.toContain(TEST_BASIC);
  }
}

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

describe('the access token never appears in an error', () => {
  it.each([400, 401, 403, 404, 429, 500, 503])(
    'status %i with the credentials echoed in the body',
    async (status) => {
      server.answer(echoing(status));
      const error = await failure(client.getItem({ code: 'WIDGET-9' }));
      expectNoSecret(error);
      expect((error as ErpError).bodySnippet).toContain('[secret]');
    },
  );

  it.each([TEST_TOKEN, `{"a": ${TEST_TOKEN}}`, `{"auth": "x", "b": ${TEST_BASIC}`])(
    'a 200 body that is not JSON and quotes a secret (JSON.parse repeats it): %#',
    async (body) => {
      server.answer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(body);
      });
      const error = await failure(client.searchItems({ keywords: ['x'], offset: 0 }));
      expectNoSecret(error);
      const cause = (error as ErpError).cause;
      expect(cause).toBeInstanceOf(SyntaxError);
      // Not even the first characters JSON.parse quotes survive in the cause.
      expect(inspect(cause)).not.toContain(TEST_TOKEN.slice(0, 8));
      expect(inspect(cause)).not.toContain(TEST_BASIC.slice(0, 8));
      expect(String(cause)).toMatch(/is not valid JSON|Unexpected/);
    },
  );

  it('a 200 body with the wrong shape carrying the token as a value', async () => {
    server.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: TEST_TOKEN, code: TEST_BASIC }));
    });
    expectNoSecret(await failure(client.getContact({ code: 'ACME' })));
  });

  it('a timeout', async () => {
    server.answer(() => {
      // Never answers.
    });
    expectNoSecret(await failure(client.getItem({ code: 'WIDGET-9' })));
  });

  it('connection refused', async () => {
    const dead = makeClient(`http://127.0.0.1:${await closedPort()}`);
    expectNoSecret(await failure(dead.getItem({ code: 'WIDGET-9' })));
    await dead.close();
  });

  it('an oversized body', async () => {
    server.answer(echoing(200, 'application/json'));
    const capped = makeClient(server.baseUrl, { maxResponseBytes: 10 });
    expectNoSecret(await failure(capped.getItem({ code: 'WIDGET-9' })));
    await capped.close();
  });
});

describe('log scrubbing', () => {
  it('registers the token and the base64 credentials with the logger', () => {
    expect(scrubSecrets(`a ${TEST_TOKEN} b`)).toBe('a [secret] b');
    expect(scrubSecrets(`Basic ${TEST_BASIC}`)).toBe('Basic [secret]');
  });

  it('the client itself does not render its credentials', () => {
    const rendered = `${inspect(client, { depth: null })} ${JSON.stringify(client)}`;
    expect(rendered).not.toContain(TEST_TOKEN);
    expect(rendered).not.toContain(TEST_BASIC);
    expect(client.credentialKey).not.toContain(TEST_TOKEN);
  });
});
