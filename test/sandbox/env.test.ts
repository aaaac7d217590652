import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sandboxOptionsFromEnv } from '../../src/sandbox/index.js';
import { nodeArgsForSource, repoRoot } from '../helpers/entry.js';

describe('sandbox options from the environment', () => {
  it('reads every SANDBOX_* variable', () => {
    expect(
      sandboxOptionsFromEnv({
        SANDBOX_PORT: '4100',
        SANDBOX_SEED: '7',
        SANDBOX_LATENCY_MS: '50',
        SANDBOX_JITTER_MS: '20',
        SANDBOX_ERROR_RATE: '0.1',
        SANDBOX_HANG_RATE: '0.01',
        SANDBOX_MALFORMED_RATE: '0.02',
        SANDBOX_DRIFT_RATE: '0.03',
        SANDBOX_COUNT: 'page',
        SANDBOX_RETRY_AFTER: '1',
        SANDBOX_REQUIRE_QUERY: '0',
      }),
    ).toEqual({
      port: 4100,
      seed: 7,
      faults: {
        latencyMs: 50,
        jitterMs: 20,
        errorRate: 0.1,
        hangRate: 0.01,
        malformedRate: 0.02,
        driftRate: 0.03,
      },
      behaviour: { countMeaning: 'page', retryAfter: true, requireQuery: false },
    });
  });

  it('leaves unset and blank variables to the defaults', () => {
    const options = sandboxOptionsFromEnv({ SANDBOX_SEED: ' ' });
    expect(options.seed).toBeUndefined();
    expect(Object.values(options.faults ?? {}).every((v) => v === undefined)).toBe(true);
  });

  it.each([
    ['SANDBOX_ERROR_RATE', '2'],
    ['SANDBOX_PORT', 'http'],
    ['SANDBOX_COUNT', 'all'],
    ['SANDBOX_RETRY_AFTER', 'yes'],
  ])('names the variable when %s=%s is invalid', (name, value) => {
    expect(() => sandboxOptionsFromEnv({ [name]: value })).toThrow(name);
  });
});

describe('npm run sandbox (cli.ts)', () => {
  it('prints the URL, credentials and examples, serves, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, nodeArgsForSource('src/sandbox/cli.ts'), {
      cwd: repoRoot,
      env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_SEED: '3', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    try {
      await expect.poll(() => output, { timeout: 15_000, interval: 50 }).toContain('Ctrl-C');
      const url = /ERP_BASE_URL=(\S+)/.exec(output)?.[1] ?? '';
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(output).toContain('ERP_ACCESS_TOKEN=');
      expect(output).toContain('WIDGET-9');
      expect(output).toContain('ACME01');
      const response = await fetch(`${url}/api/getItem/WIDGET-9`, {
        headers: {
          authorization: `Basic ${Buffer.from('SANDBOX:sandbox-access-token').toString('base64')}`,
          tenantid: 'sandbox-tenant',
        },
      });
      expect(response.status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
