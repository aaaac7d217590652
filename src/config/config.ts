/**
 * Configuration: every environment variable the app reads, parsed with zod into one typed,
 * frozen object. A wrong value stops start-up with a message naming the variable and the fix.
 * Secrets are never printed; `describeConfig` shows them masked.
 *
 * This file turns the parsed environment into `AppConfig` and is what the app imports; the
 * jobs it relies on have a file each: the schema (`schema.ts`), problems and their fixes
 * (`problems.ts`), rules between variables (`crossCheck.ts`), warnings (`warnings.ts`,
 * `unknownVariables.ts`), the `.env` file (`dotEnv.ts`) and the start-up summary
 * (`describe.ts`).
 */
import { withPassword } from './connectionUrls.js';
import { crossCheck, rawView } from './crossCheck.js';
import {
  ConfigError,
  type ConfigProblem,
  type ConfigWarning,
  fixFor,
  plainProblem,
} from './problems.js';
import { EnvSchema, MAX_ERP_CONNECTIONS, parseReveal, SANDBOX } from './schema.js';
import type { AppConfig, ErpTarget, SlackMode } from './types.js';
import { unknownVariableWarnings, withSpellingHint } from './unknownVariables.js';
import { warningsFor } from './warnings.js';

export { passwordOf } from './connectionUrls.js';
export { isLoopbackHost } from './crossCheck.js';
export { describeConfig, maskSecret } from './describe.js';
export { loadDotEnv } from './dotEnv.js';
export { ConfigError, type ConfigProblem, type ConfigWarning } from './problems.js';
export { type EnvName, EnvSchema, MAX_ERP_CONNECTIONS, SANDBOX } from './schema.js';
export type {
  AccessRule,
  AppConfig,
  ErpTarget,
  LogLevel,
  RevealPolicy,
  SlackMode,
} from './types.js';
export { unknownVariableWarnings } from './unknownVariables.js';

/** Parses the environment. Throws `ConfigError` listing every problem at once. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  return loadConfigReport(source).config;
}

/** `loadConfig`, plus a warning for each value that was clamped or ignored. */
export function loadConfigReport(source: NodeJS.ProcessEnv = process.env): {
  config: AppConfig;
  warnings: ConfigWarning[];
} {
  const parsed = EnvSchema.safeParse(source, { error: plainProblem });
  const problems: ConfigProblem[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? 'environment');
        return { variable, problem: issue.message, fix: fixFor(variable) };
      });
  crossCheck(rawView(source), problems);
  if (!parsed.success || problems.length > 0) {
    throw new ConfigError(problems.map((p) => withSpellingHint(p, source)));
  }
  const env = parsed.data;

  const mode: SlackMode = !env.SLACK_BOT_TOKEN
    ? 'console'
    : env.SLACK_APP_TOKEN
      ? 'socket'
      : 'http';
  const erp: ErpTarget =
    env.ERP_BASE_URL && env.ERP_BASE_URL !== SANDBOX
      ? {
          kind: 'remote',
          baseUrl: env.ERP_BASE_URL,
          companyCode: env.ERP_COMPANY_CODE ?? '',
          accessToken: env.ERP_ACCESS_TOKEN ?? '',
          tenantId: env.ERP_TENANT_ID ?? '',
        }
      : { kind: 'sandbox' };

  const config: AppConfig = Object.freeze({
    mode,
    slack: {
      botToken: env.SLACK_BOT_TOKEN,
      signingSecret: env.SLACK_SIGNING_SECRET,
      appToken: env.SLACK_APP_TOKEN,
      apiUrl: env.SLACK_API_URL.endsWith('/') ? env.SLACK_API_URL : `${env.SLACK_API_URL}/`,
    },
    port: env.PORT,
    host: env.HOST,
    erp,
    erpTimeoutMs: env.ERP_TIMEOUT_MS,
    limits: {
      getPerMinute: env.ERP_GET_LIMIT_PER_MINUTE,
      searchPerMinute: env.ERP_SEARCH_LIMIT_PER_MINUTE,
    },
    erpMaxConnections: Math.min(
      MAX_ERP_CONNECTIONS,
      env.ERP_MAX_CONNECTIONS ?? env.ERP_GET_LIMIT_PER_MINUTE + env.ERP_SEARCH_LIMIT_PER_MINUTE,
    ),
    queueMaxWaitMs: env.QUEUE_MAX_WAIT_SECONDS * 1000,
    fairShareReserve: env.FAIR_SHARE_RESERVE,
    redisUrl: withPassword(env.REDIS_URL, env.REDIS_PASSWORD),
    cache: {
      ttlSeconds: env.CACHE_TTL_SECONDS,
      // Contacts hold personal data: never cached longer than items, 30 s by default.
      contactTtlSeconds: Math.min(
        env.CONTACT_CACHE_TTL_SECONDS ?? Math.min(30, env.CACHE_TTL_SECONDS),
        env.CACHE_TTL_SECONDS,
      ),
      maxBytes: env.CACHE_MAX_MB * 1024 * 1024,
    },
    logLevel: env.LOG_LEVEL,
    privacy: {
      reveal: parseReveal(env.CONTACT_REVEAL) ?? { kind: 'members' },
      auditFile: env.AUDIT_LOG_FILE,
    },
    access: {
      stock: { channels: env.STOCK_ALLOWED_CHANNELS, users: env.STOCK_ALLOWED_USERS },
      contact: { channels: env.CONTACT_ALLOWED_CHANNELS, users: env.CONTACT_ALLOWED_USERS },
    },
    shareCost: env.SHARE_COST,
    shareAccountTerms: env.SHARE_ACCOUNT_TERMS,
    mcp: { enabled: mode === 'http' && env.MCP_ENABLED },
    watches: {
      databaseUrl: withPassword(env.DATABASE_URL, env.DATABASE_PASSWORD),
      dataDir: env.DATA_DIR,
      share: env.WATCH_SHARE,
      minIntervalMs: env.WATCH_MIN_INTERVAL_SECONDS * 1000,
      maxIntervalMs: env.WATCH_MAX_INTERVAL_MINUTES * 60_000,
      maxPerChannel: env.WATCH_MAX_PER_CHANNEL,
      maxPerUser: env.WATCH_MAX_PER_USER,
    },
    catalogue: {
      crawlShare: env.CATALOGUE_CRAWL_SHARE,
      refreshMinutes: env.CATALOGUE_REFRESH_MINUTES,
      file: env.CATALOGUE_FILE,
      maxItems: env.CATALOGUE_MAX_ITEMS,
    },
  });
  return { config, warnings: [...warningsFor(env, config), ...unknownVariableWarnings(source)] };
}
