/**
 * Global setup: one folder for the run's app data directories (testDataDir in entry.ts makes
 * one per test process inside it), removed at the end. Test processes are stopped without
 * their exit handlers running, so they cannot remove their own.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // Once per project: the first one owns the folder (as with the leak scan's captures).
  const existing = process.env.TEST_DATA_ROOT;
  if (existing && existsSync(existing)) return () => {};
  const dir = mkdtempSync(join(tmpdir(), 'erp-lookups-data-'));
  process.env.TEST_DATA_ROOT = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
