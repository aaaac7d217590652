/**
 * Passwords in REDIS_URL and DATABASE_URL: one with `/`, `+`, `=`, `@`, `:`, `#` or `%` given
 * in its own variable reaches the clients intact (ioredis and pg parse the URL the app builds,
 * without connecting), one percent-encoded in the URL works too, and no problem, warning or
 * start-up summary repeats either.
 */

import { Redis } from 'ioredis';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  describeConfig,
  loadConfig,
  loadConfigReport,
  passwordOf,
} from '../../src/config/config.js';

const AWKWARD = 'p/a+s=s@w:o#r?d%2F 50%';

/** What ioredis and pg would send as the password for this URL. */
function clientPasswords(redisUrl: string | undefined, databaseUrl: string | undefined) {
  const redis = new Redis(redisUrl ?? '', { lazyConnect: true });
  const database = new pg.Client({ connectionString: databaseUrl });
  try {
    return { redis: redis.options.password, database: database.password };
  } finally {
    redis.disconnect();
  }
}

function problemsText(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return '';
}

describe('connection URLs and their passwords', () => {
  it('puts a password given on its own into the URL, encoded, for both clients', () => {
    const config = loadConfig({
      REDIS_URL: 'redis://cache.internal:6379',
      REDIS_PASSWORD: AWKWARD,
      DATABASE_URL: 'postgres://erp_lookups@db.internal:5432/erp_lookups',
      DATABASE_PASSWORD: AWKWARD,
    });
    expect(clientPasswords(config.redisUrl, config.watches.databaseUrl)).toEqual({
      redis: AWKWARD,
      database: AWKWARD,
    });
    // The rest of each URL is as given.
    const database = new URL(config.watches.databaseUrl ?? '');
    expect([database.username, database.host, database.pathname]).toEqual([
      'erp_lookups',
      'db.internal:5432',
      '/erp_lookups',
    ]);
    expect(new URL(config.redisUrl ?? '').host).toBe('cache.internal:6379');
    expect(passwordOf(config.redisUrl ?? '')).toBe(AWKWARD);
  });

  it('takes a password percent-encoded in the URL itself', () => {
    const encoded = encodeURIComponent(AWKWARD);
    const config = loadConfig({
      REDIS_URL: `rediss://:${encoded}@cache.internal:6380`,
      DATABASE_URL: `postgres://app:${encoded}@db.internal/watches`,
    });
    expect(clientPasswords(config.redisUrl, config.watches.databaseUrl)).toEqual({
      redis: AWKWARD,
      database: AWKWARD,
    });
  });

  it('refuses a password in both places, and a raw % in the URL, without repeating either', () => {
    const both = problemsText({
      REDIS_URL: 'redis://:in-the-url@cache.internal:6379',
      REDIS_PASSWORD: 'in-its-own-variable',
    });
    expect(both).toContain('REDIS_PASSWORD: is set while REDIS_URL carries a password too');
    const percent = problemsText({ DATABASE_URL: 'postgres://app:50%off@db.internal/watches' });
    expect(percent).toContain('DATABASE_URL: has a password with a % that is not percent-encoded');
    expect(percent).toContain('DATABASE_PASSWORD');
    // A password that breaks the URL: the field's problem says how to give it.
    const broken = problemsText({ REDIS_URL: 'redis://:pa/ss@cache.internal:6379' });
    expect(broken).toMatch(/REDIS_URL: is not a valid URL.*percent-encoded.*REDIS_PASSWORD/);
    for (const secret of ['in-the-url', 'in-its-own-variable', '50%off', 'pa/ss']) {
      expect(`${both}${percent}${broken}`).not.toContain(secret);
    }
  });

  it('warns of a password without its URL, and shows neither password at start-up', () => {
    const alone = loadConfigReport({ REDIS_PASSWORD: AWKWARD, DATABASE_PASSWORD: AWKWARD });
    expect(alone.warnings).toEqual([
      { variable: 'REDIS_PASSWORD', message: 'is ignored: REDIS_URL is not set' },
      { variable: 'DATABASE_PASSWORD', message: 'is ignored: DATABASE_URL is not set' },
    ]);
    const { config, warnings } = loadConfigReport({
      REDIS_URL: 'redis://cache.internal:6379',
      REDIS_PASSWORD: AWKWARD,
      DATABASE_URL: 'postgres://app@db.internal/watches',
      DATABASE_PASSWORD: AWKWARD,
    });
    const shown = JSON.stringify([describeConfig(config), warnings]);
    expect(shown).not.toContain(AWKWARD);
    expect(shown).not.toContain(encodeURIComponent(AWKWARD));
    // With the password given, the remote Redis lacks only TLS.
    expect(warnings.map((w) => w.message).join()).toMatch(/without TLS \(rediss:\/\/\):/);
  });
});
