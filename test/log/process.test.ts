/**
 * The process-level handlers, in a child process of their own (the test runner has its own
 * handlers): a stray rejection is logged and the process carries on.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

const SCRIPT = `
import { createLogger, registerSecret } from './src/log/logger.ts';
import { keepRunningOnStrayRejections } from './src/log/process.ts';
registerSecret('xoxb-stray-secret-123');
keepRunningOnStrayRejections(createLogger({ level: 'info', destination: process.stdout }));
Promise.reject(new Error('boom with xoxb-stray-secret-123'));
setTimeout(() => { console.log('still serving'); process.exit(0); }, 200);
`;

it('logs an unhandled rejection, without its secrets, and keeps the process running', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    cwd: repoRoot,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  expect(output).toContain('"event":"unhandled_rejection"');
  expect(output).toContain('boom with [secret]');
  expect(output).toContain('still serving');
  expect(output).not.toContain('xoxb-stray-secret-123');
});
