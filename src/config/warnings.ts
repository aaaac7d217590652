/**
 * Values the app did not use as given (clamped or ignored) and a Redis reachable in clear
 * across a network: logged at start-up, never fatal.
 */
import { isLoopbackHost } from './crossCheck.js';
import type { ConfigWarning } from './problems.js';
import { type Env, MAX_ERP_CONNECTIONS } from './schema.js';
import type { AppConfig } from './types.js';

export function warningsFor(env: Env, config: AppConfig): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  const warn = (variable: string, message: string) => warnings.push({ variable, message });
  if (
    env.CONTACT_CACHE_TTL_SECONDS !== undefined &&
    env.CONTACT_CACHE_TTL_SECONDS !== config.cache.contactTtlSeconds
  ) {
    warn(
      'CONTACT_CACHE_TTL_SECONDS',
      `is ${env.CONTACT_CACHE_TTL_SECONDS} but contacts are never cached longer than items: using CACHE_TTL_SECONDS (${config.cache.contactTtlSeconds})`,
    );
  }
  if (config.mode === 'socket' && env.SLACK_SIGNING_SECRET) {
    warn('SLACK_SIGNING_SECRET', 'is ignored in Socket Mode (SLACK_APP_TOKEN is set)');
  }
  if (config.erp.kind === 'sandbox') {
    for (const name of ['ERP_COMPANY_CODE', 'ERP_ACCESS_TOKEN', 'ERP_TENANT_ID'] as const) {
      if (env[name]) warn(name, 'is ignored: the ERP is the built-in sandbox');
    }
    if (config.redisUrl) {
      warn(
        'REDIS_URL',
        'is set with ERP_BASE_URL=sandbox: each replica runs its own sandbox ERP with its own data and rate limits, so replicas share the cache and budget of ERPs that are not the same (use a real ERP, or one replica, to try scaling out)',
      );
    }
  }
  if (env.ERP_MAX_CONNECTIONS !== undefined && env.ERP_MAX_CONNECTIONS > MAX_ERP_CONNECTIONS) {
    warn(
      'ERP_MAX_CONNECTIONS',
      `is ${env.ERP_MAX_CONNECTIONS}, above the limit of ${MAX_ERP_CONNECTIONS}: using ${MAX_ERP_CONNECTIONS}`,
    );
  }
  for (const [password, url] of [
    ['REDIS_PASSWORD', 'REDIS_URL'],
    ['DATABASE_PASSWORD', 'DATABASE_URL'],
  ] as const) {
    if (env[password] !== undefined && env[url] === undefined) {
      warn(password, `is ignored: ${url} is not set`);
    }
  }
  const redisWarning = config.redisUrl ? redisTransportWarning(config.redisUrl) : undefined;
  if (redisWarning) warn('REDIS_URL', redisWarning);
  return warnings;
}

/**
 * Redis holds cached contacts (personal data) and answers anyone who can reach it: across a
 * network it wants TLS (rediss://) and a password. Loopback stays quiet.
 */
function redisTransportWarning(redisUrl: string): string | undefined {
  const url = new URL(redisUrl);
  if (isLoopbackHost(url.hostname)) return undefined;
  const missing = [
    ...(url.protocol === 'rediss:' ? [] : ['TLS (rediss://)']),
    ...(url.password ? [] : ['a password']),
  ];
  if (missing.length === 0) return undefined;
  return `points at ${url.hostname}, a remote host, without ${missing.join(' or ')}: cached contacts (personal data) cross the network readable by anyone who can reach it`;
}
