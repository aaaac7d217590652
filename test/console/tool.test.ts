/**
 * `npm start -- --tool …`: a tool of Slack's agent called from a terminal, as a process,
 * against the built-in sandbox ERP: the tool's text on standard output, exit codes like --once.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'vitest';
import { nodeArgsForSource, repoRoot } from '../helpers/entry.js';

async function runMain(args: string[]) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(SLACK_|ERP_|REDIS_URL$|DATABASE_URL$|DATA_DIR$|WATCH_|MCP_)/.test(name),
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

// Processes that share nothing: they run side by side.
describe.concurrent('npm start -- --tool', () => {
  it('prints check_stock’s verdict for WIDGET-9 / 50 / perth and exits 0', async ({ expect }) => {
    const run = await runMain([
      '--tool',
      'check_stock',
      '{"code":"WIDGET-9","quantity":50,"branch":"perth"}',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^No, 50 of WIDGET-9 at Perth: Perth has 0 free/);
  }, 60_000);

  it('prints the blocks too with --json', async ({ expect }) => {
    const run = await runMain(['--tool', 'find_contact', '{"account":"ACME01"}', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      content: Array<{ text: string }>;
      _meta: { slack: { blocks: unknown[] } };
    };
    expect(result.content[0]?.text).toContain('Acme Industrial Supplies');
    expect(result._meta.slack.blocks.length).toBeGreaterThan(0);
  }, 60_000);

  it('exits 1 with the refusal for an unknown code', async ({ expect }) => {
    const run = await runMain(['--tool', 'check_stock', '{"code":"NO-SUCH-ITEM-42"}']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('No item has the code NO-SUCH-ITEM-42');
  }, 60_000);

  it('exits 2 on an unknown tool or arguments that are not JSON', async ({ expect }) => {
    const unknown = await runMain(['--tool', 'drop_tables']);
    const notJson = await runMain(['--tool', 'check_stock', 'WIDGET-9']);
    expect([unknown.code, notJson.code]).toEqual([2, 2]);
    expect(unknown.stderr).toContain('check_stock, find_items, find_contact, list_watches');
  }, 60_000);
});
