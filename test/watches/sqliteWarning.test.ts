/**
 * `node:sqlite` warns "SQLite is an experimental feature" once per process on Node 22. The
 * store drops that one warning while it loads the module, and no other: run in a process of
 * its own, since a warning is emitted once per process. A runtime without `node:sqlite` (Node
 * 20) skips it, so .ci/run runs this file on Node 22 and 24 as well.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hasNodeSqlite } from '../../src/watches/sqlite.js';
import { repoRoot } from '../helpers/entry.js';

const run = promisify(execFile);

const SCRIPT = `
import { openSqlite } from './src/watches/sqlite.ts';
const db = await openSqlite('node:sqlite', undefined);
console.log(JSON.stringify(db.prepare('select 1 as one').all([])));
db.close();
process.emitWarning('another experimental feature', 'ExperimentalWarning');
`;

describe.runIf(hasNodeSqlite())('node:sqlite without its experimental warning', () => {
  it('opens the built-in engine and prints no SQLite warning, while other warnings still show', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', SCRIPT],
      { cwd: repoRoot, env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(stdout.trim()).toBe('[{"one":1}]');
    expect(stderr).not.toMatch(/SQLite is an experimental feature/);
    expect(stderr).toContain('ExperimentalWarning: another experimental feature');
  });
});
