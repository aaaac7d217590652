/**
 * `npm start -- --step …`: the workflow step run from a terminal, as a process, against the
 * built-in sandbox ERP: outputs as JSON on standard output, exit codes like --once.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { parseStepArgs } from '../../src/console/step.js';
import { nodeArgsForSource, repoRoot } from '../helpers/entry.js';

async function runMain(args: string[]) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(SLACK_|ERP_|REDIS_URL$|DATABASE_URL$|DATA_DIR$|WATCH_)/.test(name),
    ),
  );
  const child = spawn(process.execPath, [...nodeArgsForSource('src/main.ts'), ...args], {
    cwd: repoRoot,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

// Three processes that share nothing: they run side by side.
describe.concurrent('npm start -- --step', () => {
  it('prints the outputs of WIDGET-9 / 50 / perth as JSON and exits 0', async ({ expect }) => {
    const run = await runMain(['--step', 'WIDGET-9', '50', 'perth']);
    expect(run.code, run.stderr).toBe(0);
    const outputs = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(outputs).sort()).toEqual([
      'available',
      'can_supply',
      'description',
      'on_order',
      'split_possible',
      'summary',
    ]);
    expect(outputs).toMatchObject({ can_supply: false, available: 0 });
    expect(outputs.on_order).toBeGreaterThan(0);
    expect(outputs.summary).toMatch(/^No, 50 of WIDGET-9 at Perth: Perth has 0 free/);
  }, 60_000);

  it('prints the failure sentence and exits 1 for an unknown code', async ({ expect }) => {
    const run = await runMain(['--step', 'NO-SUCH-ITEM-42']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('No item has the code “NO-SUCH-ITEM-42” in the ERP');
  }, 60_000);

  it('exits 2 with the usage without a code', async ({ expect }) => {
    const run = await runMain(['--step']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--step needs an item code');
  }, 60_000);
});

describe('parseStepArgs', () => {
  it('reads the code, then a whole number as the quantity and other words as the branch', () => {
    expect(parseStepArgs(['WIDGET-9', 'perth', 'airport', '50'])).toEqual({
      item_code: 'WIDGET-9',
      quantity: 50,
      branch: 'perth airport',
    });
    expect(parseStepArgs(['WIDGET-9 12'])).toEqual({ item_code: 'WIDGET-9', quantity: 12 });
    expect(parseStepArgs([])).toBeUndefined();
  });
});
