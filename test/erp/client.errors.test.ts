import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ErpClient } from '../../src/erp/client.js';
import {
  AuthError,
  BadRequestError,
  type ErpError,
  InvalidInputError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TenantError,
  UnavailableError,
  UnexpectedDataError,
} from '../../src/erp/errors.js';
import { makeClient } from './helpers/client-factory.js';
import { closedPort, TestErpServer } from './helpers/test-erp-server.js';

let server: TestErpServer;
let client: ErpClient;
const NOW = Date.parse('2025-06-01T12:00:00Z');

beforeAll(async () => {
  server = await TestErpServer.start();
  client = makeClient(server.baseUrl, { now: () => NOW });
});
afterAll(async () => {
  await client.close();
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

async function failure(call: Promise<unknown>): Promise<ErpError> {
  try {
    await call;
  } catch (error) {
    return error as ErpError;
  }
  throw new Error('expected the call to fail');
}

describe('HTTP statuses', () => {
  it.each([
    [404, NotFoundError, 'erp_not_found', false],
    [400, BadRequestError, 'erp_bad_request', false],
    [401, AuthError, 'erp_auth', false],
    [403, TenantError, 'erp_tenant', false],
    [429, RateLimitedError, 'erp_rate_limited', true],
    [500, ServerError, 'erp_server', true],
    [502, ServerError, 'erp_server', true],
    [503, ServerError, 'erp_server', true],
    [302, ServerError, 'erp_server', true],
    [418, ServerError, 'erp_server', true],
  ])('%i -> %o', async (status, errorClass, code, retryable) => {
    server.answerJson(status, { error: 'nope' });
    const error = await failure(client.getItem({ code: 'WIDGET-9' }));
    expect(error).toBeInstanceOf(errorClass);
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(retryable);
    expect(error.statusCode).toBe(status);
    expect(error.endpoint).toBe('getItem');
    expect(error.message).toContain('getItem');
  });

  it('keeps a short, whitespace-folded body snippet out of the message', async () => {
    const page = `<html>\n<body>  ${'Internal failure. '.repeat(40)}</body></html>`;
    server.answerText(500, page);
    const error = await failure(client.searchItems({ keywords: ['secret-customer'], offset: 0 }));
    expect(error.bodySnippet?.startsWith('<html> <body> Internal failure.')).toBe(true);
    expect(error.bodySnippet?.length).toBeLessThanOrEqual(201);
    expect(error.message).not.toContain('Internal failure');
    // A search query may be a person's name: never in the message.
    expect(error.message).not.toContain('secret-customer');
  });

  it('reads no snippet from an empty error body', async () => {
    server.answerText(404, '');
    const error = await failure(client.getContact({ code: 'NOPE' }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.bodySnippet).toBeUndefined();
  });
});

describe('Retry-After on 429', () => {
  async function retryAfter(headers: Record<string, string>): Promise<number | undefined> {
    server.answerJson(429, { error: 'slow down' }, headers);
    const error = await failure(client.searchContact({ keywords: ['acme'], offset: 0 }));
    expect(error).toBeInstanceOf(RateLimitedError);
    return (error as RateLimitedError).retryAfterMs;
  }

  it('reads delta-seconds', async () => {
    expect(await retryAfter({ 'retry-after': '7' })).toBe(7000);
  });
  it('reads an HTTP-date against the injected clock', async () => {
    expect(await retryAfter({ 'retry-after': 'Sun, 01 Jun 2025 12:00:30 GMT' })).toBe(30_000);
  });
  it('gives 0 for a date in the past', async () => {
    expect(await retryAfter({ 'retry-after': 'Sun, 01 Jun 2025 11:00:00 GMT' })).toBe(0);
  });
  it('is undefined when absent or unreadable', async () => {
    expect(await retryAfter({})).toBeUndefined();
    expect(await retryAfter({ 'retry-after': 'soon' })).toBeUndefined();
  });
});

describe('transport failures', () => {
  it('times out waiting for headers from a server that never answers', async () => {
    server.answer(() => {
      // Accept the request and say nothing.
    });
    const quick = makeClient(server.baseUrl, { timeoutMs: 200 });
    const error = await failure(quick.getItem({ code: 'WIDGET-9' }));
    await quick.close();
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).reason).toBe('timeout');
    expect(error.retryable).toBe(true);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('times out on a body that stalls half-way', async () => {
    server.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"id": 1, "code": "WID');
    });
    const quick = makeClient(server.baseUrl, { timeoutMs: 200 });
    const error = await failure(quick.getItem({ code: 'WIDGET-9' }));
    await quick.close();
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).reason).toBe('timeout');
  });

  it('refuses a declared oversized body without reading it', async () => {
    server.answerText(200, 'x'.repeat(4096), { 'content-type': 'application/json' });
    const capped = makeClient(server.baseUrl, { maxResponseBytes: 1024 });
    const error = await failure(capped.getItem({ code: 'WIDGET-9' }));
    await capped.close();
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).reason).toBe('too_large');
    expect(error.retryable).toBe(false);
  });

  it('aborts a streamed body once it passes the cap', async () => {
    let stopped = false;
    server.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = `[${'1,'.repeat(2000)}`;
      const timer = setInterval(() => {
        if (response.destroyed) {
          stopped = true;
          clearInterval(timer);
        } else response.write(chunk);
      }, 5);
      response.on('close', () => {
        stopped = true;
        clearInterval(timer);
      });
    });
    const capped = makeClient(server.baseUrl, { maxResponseBytes: 20_000 });
    const error = await failure(capped.getItem({ code: 'WIDGET-9' }));
    await capped.close();
    expect((error as UnavailableError).reason).toBe('too_large');
    await expect.poll(() => stopped).toBe(true);
  });

  it('reports connection refused on a closed port', async () => {
    const dead = makeClient(`http://127.0.0.1:${await closedPort()}`);
    const error = await failure(dead.getItem({ code: 'WIDGET-9' }));
    await dead.close();
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).reason).toBe('refused');
    expect(error.message).toBe('ERP getItem: connection refused');
  });

  it('reports a reset when the server drops the connection', async () => {
    server.answer((request) => request.socket.destroy());
    const error = await failure(client.getContact({ code: 'ACME' }));
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).reason).toBe('reset');
  });

  it("rejects with the caller's abort reason, not an ERP error", async () => {
    const controller = new AbortController();
    const reason = new Error('user went away');
    // Never answers; the abort, once the request is at the server, is what ends the call.
    server.answer(() => controller.abort(reason));
    const pending = client.getItem({ code: 'WIDGET-9' }, { signal: controller.signal });
    await expect(pending).rejects.toBe(reason);
  });
});

it('an already aborted signal rejects without reaching the ERP', async () => {
  const reason = new Error('deadline passed');
  await expect(
    client.getItem({ code: 'WIDGET-9' }, { signal: AbortSignal.abort(reason) }),
  ).rejects.toBe(reason);
  expect(server.requests).toHaveLength(0);
});

describe('invalid input', () => {
  it('refuses a negative or fractional id without calling the ERP', async () => {
    await expect(client.getItem({ id: -1 })).rejects.toMatchObject({
      code: 'erp_invalid_input',
      problem: 'bad_id',
    });
    await expect(client.getContact({ id: 1.5 })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(client.getItem({ code: '' })).rejects.toMatchObject({ problem: 'empty_code' });
    expect(server.requests).toHaveLength(0);
  });

  it('refuses text that cannot be encoded (a lone surrogate)', async () => {
    await expect(client.getItem({ code: 'AB\uD800' })).rejects.toMatchObject({
      code: 'erp_invalid_input',
      problem: 'not_text',
    });
    await expect(client.searchItems({ keywords: ['\uDC00'], offset: 0 })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('never reports its own refusal as the ERP refusing (400)', async () => {
    const error = await failure(client.getItem({ code: 'AB\uD800' }));
    expect(error).not.toBeInstanceOf(BadRequestError);
    expect(error.retryable).toBe(false);
    expect(error.audience).toBe('user');
  });

  it('refuses a base URL that is not http(s) or carries credentials', () => {
    expect(() => makeClient('ftp://erp.example.com')).toThrow(/http or https/);
    expect(() => makeClient('https://user:pw@erp.example.com')).toThrow(/user name/);
    expect(() => makeClient('not a url')).toThrow(/not a valid URL/);
    expect(() => makeClient('https://erp.example.com', { timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});

describe('unexpected data', () => {
  it.each([
    ['HTML instead of JSON', '<html><body>Maintenance</body></html>', '(body)'],
    ['an empty body', '', '(body)'],
  ])('%s', async (_label, body, path) => {
    server.answerText(200, body);
    const error = await failure(client.getItem({ code: 'WIDGET-9' }));
    expect(error).toBeInstanceOf(UnexpectedDataError);
    expect((error as UnexpectedDataError).issues).toEqual([{ path, message: 'not JSON' }]);
    expect(error.message).toBe('ERP returned unexpected data from getItem: (body): not JSON');
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('a JSON null body', async () => {
    server.answerJson(200, null);
    const error = await failure(client.getContact({ code: 'ACME' }));
    expect(error).toBeInstanceOf(UnexpectedDataError);
    expect((error as UnexpectedDataError).issues[0]?.path).toBe('(body)');
    expect(error.message).toContain('expected object, received null');
  });
});
