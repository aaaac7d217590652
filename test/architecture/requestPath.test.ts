/**
 * The files of src/ one `/stock WIDGET-9 50 perth` passes through, as docs/architecture.md
 * lists them: measured with V8's precise coverage (which functions ran) around one signed
 * command through Bolt's real HTTP receiver, against the sandbox ERP and a fake Slack. The
 * doc's list is what a maintainer follows; this keeps it the code's.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';

const ROOT = join(import.meta.dirname, '../..');
const QUESTION = 'WIDGET-9 50 perth';

interface ScriptCoverage {
  url: string;
  functions: Array<{ ranges: Array<{ count: number }> }>;
}

/** Calls made since the last take in each file of src/, by its path from the repository root. */
async function callsByFile(session: Session): Promise<Map<string, number>> {
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as {
    result: ScriptCoverage[];
  };
  const calls = new Map<string, number>();
  for (const script of result) {
    const path = /\/(src\/.+\.ts)$/.exec(script.url)?.[1];
    if (!path || path.startsWith('src/sandbox/') || path.startsWith('src/console/')) continue;
    const count = script.functions.reduce((sum, fn) => sum + (fn.ranges[0]?.count ?? 0), 0);
    calls.set(path, count);
  }
  return calls;
}

/**
 * The files a request entered: those with calls during it. Taking the coverage resets V8's
 * counters, so the first take clears what start-up ran and the second counts the request's.
 */
async function filesEntered(session: Session, send: () => Promise<unknown>): Promise<string[]> {
  // Start-up's own work (the ERP probe, auth.test) must be over, or it would be counted as the
  // request's: wait for a stretch between two readings in which no file of src/ ran.
  await eventually(async () => {
    const running = [...(await callsByFile(session))].filter(([, count]) => count > 0);
    expect(running.map(([path]) => path)).toEqual([]);
  });
  await send();
  const after = await callsByFile(session);
  return [...after]
    .filter(([, count]) => count > 0)
    .map(([path]) => path)
    .sort();
}

/** The paths in the doc's fenced list under "One `/stock`, end to end". */
function documentedPath(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = doc.split(/^## /m).find((part) => part.startsWith('One `/stock`'));
  const list = section && /```text\n([\s\S]*?)```/.exec(section)?.[1];
  if (!list) throw new Error('docs/architecture.md lists no files for one /stock');
  return list
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter((path) => path.startsWith('src/'))
    .sort();
}

let run: RunningApp;
const session = new Session();

beforeAll(async () => {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  run = await startApp({ logLevel: 'info' });
});
afterAll(async () => {
  await run?.stop();
  session.disconnect();
});

describe('one /stock WIDGET-9 50 perth', () => {
  it('passes through the files docs/architecture.md lists, and no others', async () => {
    const entered = await filesEntered(session, async () => {
      const { ack } = await run.command('/stock', QUESTION);
      expect(ack?.text).toMatch(/^No, 50 of WIDGET-9 at Perth/);
    });
    expect(entered).toEqual(documentedPath());
  });
});
