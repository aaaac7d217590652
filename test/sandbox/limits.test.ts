import { afterEach, describe, expect, it } from 'vitest';
import { generateSandboxData, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { rawGet } from './http.js';

const data = generateSandboxData(9);
let sandbox: RunningSandbox | undefined;
afterEach(() => sandbox?.close());

async function statuses(target: RunningSandbox, path: string, times: number): Promise<number[]> {
  const result: number[] = [];
  for (let i = 0; i < times; i++) result.push((await rawGet(target, path)).status);
  return result;
}

describe('sandbox rate limits', () => {
  it('allows 60 getItem and 20 searchItems a minute by default, then answers 429', async () => {
    sandbox = await startSandbox({ data });
    const gets = await statuses(sandbox, '/api/getItem/WIDGET-9', 61);
    expect(gets.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(gets[60]).toBe(429);
    const searches = await statuses(sandbox, '/api/searchItems?q=widget', 21);
    expect(searches.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(searches[20]).toBe(429);
    expect(sandbox.stats().rateLimited).toBe(2);
  });

  it('counts each endpoint separately, including 400s and 404s but not 401s', async () => {
    sandbox = await startSandbox({ data, limits: { getItem: 3, getContact: 2 } });
    for (let i = 0; i < 5; i++) {
      expect((await rawGet(sandbox, '/api/getItem/WIDGET-9', { tenantid: 'x' })).status).toBe(401);
    }
    expect(await statuses(sandbox, '/api/getItem/NOPE', 1)).toEqual([404]);
    expect(await statuses(sandbox, '/api/getItem/x?target=id', 1)).toEqual([400]);
    expect(await statuses(sandbox, '/api/getItem/WIDGET-9', 2)).toEqual([200, 429]);
    expect(await statuses(sandbox, '/api/getContact/ACME01', 3)).toEqual([200, 200, 429]);
    expect(await statuses(sandbox, '/api/searchContact?q=acme', 1)).toEqual([200]);
  });

  it('sends no Retry-After by default, and whole seconds to the window turn when asked', async () => {
    let now = 1_000_000;
    sandbox = await startSandbox({
      data,
      limits: { getItem: 1, windowMs: 60_000 },
      now: () => now,
    });
    await rawGet(sandbox, '/api/getItem/WIDGET-9');
    const plain = await rawGet(sandbox, '/api/getItem/WIDGET-9');
    expect(plain.status).toBe(429);
    expect(plain.headers['retry-after']).toBeUndefined();
    expect(JSON.parse(plain.text)).toMatchObject({ status: 429, error: 'Too Many Requests' });
    sandbox.setBehaviour({ retryAfter: true });
    now += 15_500;
    const told = await rawGet(sandbox, '/api/getItem/WIDGET-9');
    expect(told.status).toBe(429);
    expect(told.headers['retry-after']).toBe('45');
  });

  it('opens a new window when the old one has passed, and on resetLimits', async () => {
    let now = 0;
    sandbox = await startSandbox({
      data,
      limits: { searchItems: 2, windowMs: 60_000 },
      now: () => now,
    });
    expect(await statuses(sandbox, '/api/searchItems?q=a', 3)).toEqual([200, 200, 429]);
    now += 59_999;
    expect(await statuses(sandbox, '/api/searchItems?q=a', 1)).toEqual([429]);
    now += 1;
    expect(await statuses(sandbox, '/api/searchItems?q=a', 3)).toEqual([200, 200, 429]);
    sandbox.resetLimits();
    expect(await statuses(sandbox, '/api/searchItems?q=a', 1)).toEqual([200]);
  });

  it('keeps stats per endpoint and status until reset', async () => {
    sandbox = await startSandbox({ data, limits: { getItem: 1 } });
    await statuses(sandbox, '/api/getItem/WIDGET-9', 2);
    await rawGet(sandbox, '/nowhere');
    expect(sandbox.stats()).toEqual({
      requests: { getItem: 2, unknown: 1 },
      byStatus: { '200': 1, '429': 1, '404': 1 },
      rateLimited: 1,
    });
    sandbox.resetStats();
    expect(sandbox.stats()).toEqual({ requests: {}, byStatus: {}, rateLimited: 0 });
  });

  it('rejects invalid limits at start', async () => {
    await expect(startSandbox({ data, limits: { getItem: 0 } })).rejects.toThrow(/limits/);
  });
});
