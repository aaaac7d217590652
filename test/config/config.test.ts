import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  describeConfig,
  isLoopbackHost,
  loadConfig,
  maskSecret,
} from '../../src/config/config.js';

const HEX_SECRET = '8f14e45fceea167a5a36dedd4bea2543';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.variable);
    throw error;
  }
  return [];
};

describe('loadConfig', () => {
  it('defaults to the console and the sandbox with nothing set', () => {
    const config = loadConfig({});
    expect(config.mode).toBe('console');
    expect(config.erp).toEqual({ kind: 'sandbox' });
    expect(config.port).toBe(3000);
    expect(config.cache.ttlSeconds).toBe(60);
    expect(config.cache.contactTtlSeconds).toBe(30);
    expect(config.slack.apiUrl).toBe('https://slack.com/api/');
    expect(config.logLevel).toBe('info');
    expect(config.privacy.reveal).toEqual({ kind: 'members' });
    expect(config.limits).toEqual({ getPerMinute: 60, searchPerMinute: 20 });
  });

  it('picks Socket Mode with an app token and HTTP mode with a signing secret', () => {
    const erp = { ERP_BASE_URL: 'sandbox' };
    expect(loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1', ...erp }).mode).toBe(
      'socket',
    );
    expect(
      loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: HEX_SECRET, ...erp }).mode,
    ).toBe('http');
  });

  it('names the variable and the fix for every problem at once', () => {
    try {
      loadConfig({ PORT: 'eighty', SLACK_BOT_TOKEN: 'xoxp-user', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toContain('PORT');
      expect(message).toContain('SLACK_BOT_TOKEN: must be a bot token starting with xoxb-');
      expect(message).toContain('LOG_LEVEL');
      expect(message).toContain('Use one of fatal, error, warn, info, debug, trace, silent.');
      expect(message).not.toContain('xoxp-user');
    }
  });

  it('requires a signing secret in HTTP mode and a bot token with the other Slack secrets', () => {
    expect(problemsOf({ SLACK_BOT_TOKEN: 'xoxb-1', ERP_BASE_URL: 'sandbox' })).toEqual([
      'SLACK_SIGNING_SECRET',
    ]);
    expect(problemsOf({ SLACK_APP_TOKEN: 'xapp-1' })).toEqual(['SLACK_BOT_TOKEN']);
  });

  it('requires https for the ERP except on a loopback host, and the credentials with it', () => {
    const creds = { ERP_COMPANY_CODE: 'C', ERP_ACCESS_TOKEN: 'tok', ERP_TENANT_ID: 'T' };
    expect(problemsOf({ ERP_BASE_URL: 'http://erp.example.com', ...creds })).toEqual([
      'ERP_BASE_URL',
    ]);
    expect(problemsOf({ ERP_BASE_URL: 'http://127.0.0.1:8080', ...creds })).toEqual([]);
    expect(problemsOf({ ERP_BASE_URL: 'http://[::1]:8080', ...creds })).toEqual([]);
    expect(problemsOf({ ERP_BASE_URL: 'https://erp.example.com', ...creds })).toEqual([]);
    expect(problemsOf({ ERP_BASE_URL: 'https://erp.example.com' }).sort()).toEqual([
      'ERP_ACCESS_TOKEN',
      'ERP_COMPANY_CODE',
      'ERP_TENANT_ID',
    ]);
    expect(problemsOf({ ERP_BASE_URL: 'ftp://erp.example.com', ...creds })).toEqual([
      'ERP_BASE_URL',
    ]);
  });

  it('never keeps contacts longer than items', () => {
    expect(loadConfig({ CACHE_TTL_SECONDS: '10' }).cache.contactTtlSeconds).toBe(10);
    expect(
      loadConfig({ CACHE_TTL_SECONDS: '120', CONTACT_CACHE_TTL_SECONDS: '300' }).cache
        .contactTtlSeconds,
    ).toBe(120);
  });

  it('parses reveal policies and access lists', () => {
    expect(loadConfig({ CONTACT_REVEAL: 'nobody' }).privacy.reveal).toEqual({ kind: 'nobody' });
    expect(loadConfig({ CONTACT_REVEAL: 'U123ABC, S0GROUP' }).privacy.reveal).toEqual({
      kind: 'list',
      users: ['U123ABC'],
      userGroups: ['S0GROUP'],
    });
    expect(problemsOf({ CONTACT_REVEAL: 'bob' })).toEqual(['CONTACT_REVEAL']);
    const config = loadConfig({
      STOCK_ALLOWED_CHANNELS: 'C1AA, C2BB',
      CONTACT_ALLOWED_USERS: 'U9ZZ',
    });
    expect(config.access.stock.channels).toEqual(['C1AA', 'C2BB']);
    expect(config.access.contact.users).toEqual(['U9ZZ']);
    expect(problemsOf({ STOCK_ALLOWED_CHANNELS: 'general' })).toEqual(['STOCK_ALLOWED_CHANNELS']);
  });

  it('sizes the ERP pool for what the budget can release at once, unless ERP_MAX_CONNECTIONS says', () => {
    expect(loadConfig({}).erpMaxConnections).toBe(80);
    expect(loadConfig({ ERP_GET_LIMIT_PER_MINUTE: '120' }).erpMaxConnections).toBe(140);
    expect(loadConfig({ ERP_GET_LIMIT_PER_MINUTE: '100000' }).erpMaxConnections).toBe(256);
    expect(loadConfig({ ERP_MAX_CONNECTIONS: '16' }).erpMaxConnections).toBe(16);
    expect(problemsOf({ ERP_MAX_CONNECTIONS: '0' })).toEqual(['ERP_MAX_CONNECTIONS']);
  });

  it('bounds the catalogue index at 20,000 items unless CATALOGUE_MAX_ITEMS says, and names a bad bound', () => {
    expect(loadConfig({}).catalogue.maxItems).toBe(20_000);
    expect(loadConfig({ CATALOGUE_MAX_ITEMS: '50000' }).catalogue.maxItems).toBe(50_000);
    expect(problemsOf({ CATALOGUE_MAX_ITEMS: '0' })).toEqual(['CATALOGUE_MAX_ITEMS']);
    expect(problemsOf({ CATALOGUE_MAX_ITEMS: 'lots' })).toEqual(['CATALOGUE_MAX_ITEMS']);
    try {
      loadConfig({ CATALOGUE_MAX_ITEMS: '2.5' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).message).toContain(
        'CATALOGUE_MAX_ITEMS: must be a whole number from 1 to 1000000',
      );
      expect((error as ConfigError).message).toContain('each item takes about 0.45 KiB');
    }
  });

  it('rejects a malformed Redis URL', () => {
    expect(problemsOf({ REDIS_URL: 'http://127.0.0.1:6379' })).toEqual(['REDIS_URL']);
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe(
      'redis://127.0.0.1:6379',
    );
  });
});

describe('secrets at start-up', () => {
  it('describes the configuration with every secret masked', () => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-very-secret-bot',
      SLACK_SIGNING_SECRET: HEX_SECRET,
      ERP_BASE_URL: 'https://erp.example.com',
      ERP_COMPANY_CODE: 'ACME',
      ERP_ACCESS_TOKEN: 'erp-token-value',
      ERP_TENANT_ID: 'T1',
      REDIS_URL: 'redis://:redis-password@127.0.0.1:6379',
    });
    const text = JSON.stringify(describeConfig(config));
    for (const secret of ['very-secret-bot', HEX_SECRET, 'erp-token-value', 'redis-password']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('xoxb-•••• (set)');
    expect(maskSecret(undefined)).toBe('unset');
  });

  it('knows loopback hosts', () => {
    expect(
      ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'api.localhost'].every(isLoopbackHost),
    ).toBe(true);
    expect(['10.0.0.1', 'example.com', '::2', 'localhost.example.com'].some(isLoopbackHost)).toBe(
      false,
    );
  });
});

describe('SHARE_COST', () => {
  it('is off by default, on with true (any case), and refuses anything else by name', () => {
    expect(loadConfig({}).shareCost).toBe(false);
    expect(loadConfig({ SHARE_COST: 'TRUE' }).shareCost).toBe(true);
    expect(loadConfig({ SHARE_COST: 'false' }).shareCost).toBe(false);
    expect(loadConfig({ SHARE_COST: ' ' }).shareCost).toBe(false);
    expect(problemsOf({ SHARE_COST: 'yes please' })).toEqual(['SHARE_COST']);
  });
});
