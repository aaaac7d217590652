import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContactSchema, ItemSchema } from '../../src/erp/schemas.js';
import { generateSandboxData, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { rawGet } from './http.js';

const data = generateSandboxData(21);
const started: RunningSandbox[] = [];
async function sandboxWith(
  options: Parameters<typeof startSandbox>[0] = {},
): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    data,
    seed: 99,
    limits: { getItem: 10_000, searchItems: 10_000 },
    ...options,
  });
  started.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

describe('sandbox fault injection', () => {
  it('answers 500 at errorRate 1, after authentication', async () => {
    const sandbox = await sandboxWith({ faults: { errorRate: 1 } });
    const response = await rawGet(sandbox, '/api/getItem/WIDGET-9');
    expect(response.status).toBe(500);
    expect(response.headers['x-sandbox-fault']).toBe('error');
    expect(JSON.parse(response.text)).toMatchObject({ status: 500 });
    expect((await rawGet(sandbox, '/api/getItem/WIDGET-9', {})).status).toBe(401);
  });

  it('never answers at hangRate 1 until the sandbox closes', async () => {
    const sandbox = await sandboxWith({ faults: { hangRate: 1 } });
    const pending = rawGet(sandbox, '/api/getItem/WIDGET-9');
    const settled = vi.fn();
    pending.then(settled, settled);
    await vi.waitFor(() => expect(sandbox.stats().byStatus.hang).toBe(1));
    expect(settled).not.toHaveBeenCalled();
    await sandbox.close();
    await expect(pending).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('sends truncated or non-JSON bodies, labelled JSON, at malformedRate 1', async () => {
    const sandbox = await sandboxWith({ faults: { malformedRate: 1 } });
    const kinds = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const response = await rawGet(sandbox, '/api/getItem/WIDGET-9');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(() => JSON.parse(response.text)).toThrow();
      kinds.add(String(response.headers['x-sandbox-fault']));
    }
    expect(kinds).toEqual(new Set(['malformed:truncate', 'malformed:html']));
  });

  it('drifts a field the client reads at driftRate 1, so the client schemas reject it', async () => {
    const sandbox = await sandboxWith({ faults: { driftRate: 1 } });
    const paths = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const response = await rawGet(sandbox, '/api/getItem/WIDGET-9');
      expect(response.status).toBe(200);
      const body: unknown = JSON.parse(response.text);
      expect(ItemSchema.safeParse(body).success).toBe(false);
      paths.add(String(response.headers['x-sandbox-fault']));
    }
    expect(paths.size).toBeGreaterThan(2);
    const contact = await rawGet(sandbox, '/api/getContact/ACME01');
    expect(ContactSchema.safeParse(JSON.parse(contact.text)).success).toBe(false);
    const search = await rawGet(sandbox, '/api/searchItems?q=widget');
    expect(search.headers['x-sandbox-fault']).toMatch(/^drift:(items\.0\.|count)/);
  });

  it('adds latency', async () => {
    const sandbox = await sandboxWith({ faults: { latencyMs: 120 } });
    const started = performance.now();
    expect((await rawGet(sandbox, '/api/getItem/WIDGET-9')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('makes the same fault decisions for the same seed and request sequence', async () => {
    const sequence = async () => {
      const sandbox = await sandboxWith({ faults: { errorRate: 0.5 } });
      const result: number[] = [];
      for (let i = 0; i < 16; i++)
        result.push((await rawGet(sandbox, '/api/getItem/WIDGET-9')).status);
      return result;
    };
    const first = await sequence();
    expect(new Set(first)).toEqual(new Set([200, 500]));
    expect(await sequence()).toEqual(first);
  });

  it('can be switched at run time, and validates rates', async () => {
    const sandbox = await sandboxWith();
    expect((await rawGet(sandbox, '/api/getItem/WIDGET-9')).status).toBe(200);
    sandbox.setFaults({ errorRate: 1 });
    expect((await rawGet(sandbox, '/api/getItem/WIDGET-9')).status).toBe(500);
    sandbox.setFaults({ errorRate: 0 });
    expect((await rawGet(sandbox, '/api/getItem/WIDGET-9')).status).toBe(200);
    expect(() => sandbox.setFaults({ errorRate: 1.5 })).toThrow(RangeError);
    expect(() => sandbox.setFaults({ latencyMs: -1 })).toThrow(RangeError);
  });

  it('leaves 404s and 400s alone when drifting or malforming', async () => {
    const sandbox = await sandboxWith({ faults: { driftRate: 1, malformedRate: 1 } });
    const missing = await rawGet(sandbox, '/api/getItem/NOPE');
    expect(JSON.parse(missing.text)).toMatchObject({ status: 404 });
  });
});
