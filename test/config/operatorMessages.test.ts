/**
 * The configuration's words to an operator: refusals that name the variable and the fix,
 * warnings for what is taken but risky, clamped or probably misspelt.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadConfigReport, loadDotEnv } from '../../src/config/config.js';

const message = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return '';
};

const warningsOf = (env: Record<string, string>) =>
  loadConfigReport(env).warnings.map((w) => `${w.variable} ${w.message}`);

const transportWarnings = (redisUrl: string) =>
  warningsOf({ REDIS_URL: redisUrl }).filter((line) => line.includes('remote host'));

describe('refusals', () => {
  it('refuses SLACK_API_URL over plain http except on a loopback host', () => {
    expect(message({ SLACK_API_URL: 'http://slack-proxy.internal/api/' })).toMatch(
      /SLACK_API_URL: must use https:\/\//,
    );
    expect(message({ SLACK_API_URL: 'http://127.0.0.1:9000/api/' })).toBe('');
    expect(message({ SLACK_API_URL: 'https://slack-proxy.internal/api/' })).toBe('');
  });

  it('says what is wrong with an http ERP_BASE_URL once, without doubled parentheses', () => {
    const text = message({
      ERP_BASE_URL: 'http://erp.example.com',
      ERP_COMPANY_CODE: 'c',
      ERP_ACCESS_TOKEN: 't',
      ERP_TENANT_ID: 'x',
    });
    expect(text).toContain('ERP_BASE_URL: must use https://');
    expect(text.match(/loopback/g)).toHaveLength(1);
    expect(text).not.toMatch(/\)\s*\(/);
  });

  it('names the entry of STOCK_ALLOWED_USERS that is not a member id, and how to find ids', () => {
    const text = message({ STOCK_ALLOWED_USERS: 'U012AB3CD,sam' });
    expect(text).toContain('STOCK_ALLOWED_USERS');
    expect(text).toContain('"sam"');
    expect(text).toContain('Copy member ID');
  });

  it('refuses a value wrapped in quotes, naming quotes and --env-file', () => {
    const text = message({ SLACK_BOT_TOKEN: '"xoxb-quoted-0000"' });
    expect(text).toContain('SLACK_BOT_TOKEN: is wrapped in quotes');
    expect(text).toContain('--env-file');
    expect(text).not.toContain('xoxb-quoted-0000');
  });

  it('refuses the same quotes in .env, where Node would have stripped them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dotenv-'));
    const path = join(dir, '.env');
    writeFileSync(path, 'LOG_LEVEL=info\nCACHE_TTL_SECONDS="90"\nOTHER_TOOL="kept"\n');
    expect(() => loadDotEnv(path)).toThrow(/CACHE_TTL_SECONDS: is wrapped in quotes/);
  });
});

describe('warnings', () => {
  it('names REDIS_URL pointing at a remote host without TLS or a password', () => {
    expect(transportWarnings('redis://cache.internal:6379').join('\n')).toMatch(
      /REDIS_URL .*TLS \(rediss:\/\/\) or a password/,
    );
    expect(transportWarnings('rediss://:pw@cache.internal:6380')).toEqual([]);
    expect(transportWarnings('redis://127.0.0.1:6379')).toEqual([]);
    // The password never shows.
    expect(
      warningsOf({ REDIS_URL: 'redis://:s3cret-pw@cache.internal:6379' }).join(),
    ).not.toContain('s3cret-pw');
  });

  it('says replicas on the sandbox share nothing when REDIS_URL is set', () => {
    const text = warningsOf({ ERP_BASE_URL: 'sandbox', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(text.join('\n')).toMatch(/REDIS_URL .*own sandbox/);
  });

  it('names a clamped ERP_MAX_CONNECTIONS and uses the limit', () => {
    const { config, warnings } = loadConfigReport({ ERP_MAX_CONNECTIONS: '1000' });
    expect(config.erpMaxConnections).toBe(256);
    expect(warnings).toContainEqual({
      variable: 'ERP_MAX_CONNECTIONS',
      message: expect.stringContaining('using 256'),
    });
  });

  it('suggests the nearest known name for a misspelt variable with the app’s prefix', () => {
    expect(warningsOf({ ERP_TENNANT_ID: 'x' })).toEqual([
      'ERP_TENNANT_ID is not a variable this app reads: did you mean ERP_TENANT_ID?',
    ]);
    expect(warningsOf({ SLACK_BOT_TOKN: 'x' }).join()).toContain('SLACK_BOT_TOKEN');
    // Other tools' variables are none of the app's business.
    expect(warningsOf({ HOME: '/root', NODE_ENV: 'production' })).toEqual([]);
  });
});

describe('watches settings', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({}).watches).toEqual({
      databaseUrl: undefined,
      dataDir: './data',
      share: 0.1,
      minIntervalMs: 60_000,
      maxIntervalMs: 3_600_000,
      maxPerChannel: 50,
      maxPerUser: 20,
    });
    expect(loadConfig({}).shareAccountTerms).toBe(false);
  });

  it('takes WATCH_MAX_PER_USER, and refuses one out of range', () => {
    expect(loadConfig({ WATCH_MAX_PER_USER: '5' }).watches.maxPerUser).toBe(5);
    expect(() => loadConfig({ WATCH_MAX_PER_USER: '0' })).toThrow(/WATCH_MAX_PER_USER/);
  });

  it('refuses a DATABASE_URL that is not postgres, and out-of-range watch values', () => {
    const text = message({
      DATABASE_URL: 'mysql://db/x',
      WATCH_SHARE: '2',
      WATCH_MAX_PER_CHANNEL: '0',
    });
    for (const name of ['DATABASE_URL', 'WATCH_SHARE', 'WATCH_MAX_PER_CHANNEL']) {
      expect(text).toContain(`${name}:`);
    }
  });
});

describe('HOST', () => {
  it('is every address when unset, and takes an address or a host name', () => {
    expect(loadConfig({}).host).toBeUndefined();
    expect(loadConfig({ HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '::' }).host).toBe('::');
    expect(loadConfig({ HOST: 'app.internal' }).host).toBe('app.internal');
  });

  it('refuses something that is neither, naming the fix', () => {
    expect(() => loadConfig({ HOST: 'http://0.0.0.0:3000' })).toThrow(
      /HOST: must be an IP address or a host name\. Use an IP address/,
    );
  });
});

describe('a required variable set under a misspelt name', () => {
  const remote = {
    SLACK_BOT_TOKEN: 'xoxb-1',
    SLACK_SIGNING_SECRET: '0123456789abcdef0123456789abcdef',
    ERP_BASE_URL: 'https://erp.example.com',
    ERP_COMPANY_CODE: 'ACME',
    ERP_ACCESS_TOKEN: 'token',
  };

  it('names the variable that was set: ERP_TENANTID for ERP_TENANT_ID', () => {
    expect(() => loadConfig({ ...remote, ERP_TENANTID: 't1' })).toThrow(
      /ERP_TENANT_ID: .*ERP_TENANTID is set: did you mean ERP_TENANT_ID\?/,
    );
  });

  it('says nothing of the kind when no such variable is set', () => {
    expect(() => loadConfig(remote)).toThrow(/ERP_TENANT_ID/);
    expect(() => loadConfig(remote)).not.toThrow(/did you mean/);
  });

  it('warns about the misspelt name when the right one is set too', () => {
    const report = loadConfigReport({ ...remote, ERP_TENANT_ID: 't1', ERP_TENANTID: 't1' });
    expect(report.warnings).toContainEqual(
      expect.objectContaining({
        variable: 'ERP_TENANTID',
        message: expect.stringContaining('ERP_TENANT_ID'),
      }),
    );
  });
});
