/**
 * End to end, the versioning row of docs/erp-api.md's table "What the API description leaves open, and
 * how the app copes": a changed or missing field is "ERP returned unexpected data" for the
 * user and one warning with its path (never a value) in the log. The sandbox ERP drifts on
 * purpose and the app is driven through Bolt's HTTP receiver like Slack would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_SEED } from '../../src/sandbox/index.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { ask, bend, driftWarnings, type LogLine } from './helpers/conversation.js';

// ─── Versioning: a changed or missing field ─────────────────────────────────────────────────

describe('schema drift: "ERP returned unexpected data", logged once with its path', () => {
  let run: RunningApp;
  const ITEM_FIELDS = ['soh', 'available', 'has_bom', 'branches', 'code', 'cost'];
  const SEARCH_FIELDS = ['items.*.available', 'items.*.code', 'items.*.has_kit', 'count'];
  const ALLOWED_KEYS = new Set(['level', 'time', 'pid', 'hostname', 'component', 'msg']);
  for (const key of ['endpoint', 'field', 'problem']) ALLOWED_KEYS.add(key);

  beforeAll(async () => {
    run = await startApp({ sandbox: { seed: DEFAULT_SANDBOX_SEED, faults: { driftRate: 1 } } });
  });
  afterAll(async () => {
    await run?.stop();
  });

  function expectPathsOnly(line: LogLine) {
    for (const key of Object.keys(line)) expect(ALLOWED_KEYS).toContain(key);
    expect(String(line.field)).toMatch(/^[\w.*()]+$/);
    // zod's words ("expected number, received string"), never the value that came.
    expect(String(line.problem)).not.toMatch(/\d|"/);
  }

  it('tells the user, and warns once per drifted field with its path and no values', async () => {
    const widget = run.sandbox.data.items.find((i) => i.record.code === 'WIDGET-9')?.record;
    for (let i = 0; i < 3; i += 1) {
      const text = textOf(await ask(run, '/stock', 'WIDGET-9'));
      expect(text).toMatch(/ERP returned unexpected data/);
      expect(text).not.toMatch(/\b(soh|available|branches|cost|has_bom|received)\b/);
    }
    const warnings = driftWarnings(run);
    expect(warnings.length).toBeGreaterThan(0);
    const fields = warnings.map((line) => `${line.endpoint} ${line.field}`);
    expect(new Set(fields).size).toBe(fields.length);
    // The card's sell-price search (docs/erp-api.md) drifts too: its warnings are searchItems'.
    for (const line of warnings) {
      expect(['getItem', 'searchItems']).toContain(line.endpoint);
      expect(line.endpoint === 'getItem' ? ITEM_FIELDS : SEARCH_FIELDS).toContain(line.field);
      expectPathsOnly(line);
    }
    expect(warnings.some((line) => line.endpoint === 'getItem')).toBe(true);
    const everything = run.logLines.join('\n');
    expect(everything).not.toContain(widget?.description);
  });

  it('the same drifted field, seen again and again, is one warning', async () => {
    run.sandbox.setFaults({ driftRate: 0 });
    const record = run.sandbox.data.items[300]?.record;
    if (!record) throw new Error('no item 300 in the sandbox');
    const original = record.onorder;
    bend(record).onorder = 'twelve';
    try {
      const before = driftWarnings(run).length;
      for (let i = 0; i < 3; i += 1) {
        expect(textOf(await ask(run, '/stock', record.code))).toMatch(/unexpected data/);
      }
      const added = driftWarnings(run)
        .slice(before)
        .filter((line) => line.endpoint === 'getItem');
      expect(added.map((line) => [line.endpoint, line.field])).toEqual([['getItem', 'onorder']]);
      expect(run.logLines.join('\n')).not.toContain('twelve');
    } finally {
      record.onorder = original;
      run.sandbox.setFaults({ driftRate: 1 });
    }
  });

  it('a drifted search and a body that is not JSON get the same message; then it serves again', async () => {
    const search = textOf(await ask(run, '/stock', 'blue widget'));
    expect(search).toMatch(/ERP returned unexpected data/);
    const searchWarnings = driftWarnings(run).filter((line) => line.endpoint === 'searchItems');
    // One warning per drifted field (the cards' price searches may have seen some first).
    expect(searchWarnings.length).toBeGreaterThan(0);
    const searchFields = searchWarnings.map((line) => line.field);
    expect(new Set(searchFields).size).toBe(searchFields.length);
    // `items.*.onorder`: the bent record of the test before, seen by its card's price search.
    for (const field of searchFields) {
      expect([...SEARCH_FIELDS, 'items.*.onorder']).toContain(field);
    }

    run.sandbox.setFaults({ driftRate: 0, malformedRate: 1 });
    const malformed = textOf(await ask(run, '/stock', 'WIDGET-9-CORE'));
    expect(malformed).toMatch(/ERP returned unexpected data/);
    expect(driftWarnings(run).some((line) => line.field === '(body)')).toBe(true);

    run.sandbox.setFaults({ malformedRate: 0 });
    expect(textOf(await ask(run, '/stock', 'WIDGET-9'))).toContain(' available*');
  });
});
