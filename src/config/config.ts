/**
 * Configuration: every environment variable the app reads, parsed with zod into one typed,
 * frozen object. A wrong value stops start-up with a message naming the variable and the fix.
 * Secrets are never printed; `describeConfig` shows them masked.
 */
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';

export type SlackMode = 'socket' | 'http' | 'console';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Who may press "Reveal details" on a contact card. */
export type RevealPolicy =
  | { kind: 'members' }
  | { kind: 'everyone' }
  | { kind: 'nobody' }
  | { kind: 'list'; users: readonly string[]; userGroups: readonly string[] };

export interface AccessRule {
  /** Empty: every channel. */
  channels: readonly string[];
  /** Empty: every user. */
  users: readonly string[];
}

export type ErpTarget =
  | { kind: 'sandbox' }
  | { kind: 'remote'; baseUrl: string; companyCode: string; accessToken: string; tenantId: string };

export interface AppConfig {
  mode: SlackMode;
  slack: {
    botToken: string | undefined;
    signingSecret: string | undefined;
    appToken: string | undefined;
    /** Always ends with `/`. */
    apiUrl: string;
  };
  port: number;
  erp: ErpTarget;
  /** Per ERP call: connect, headers and body each get this long. */
  erpTimeoutMs: number;
  /** The ERP's limits per credential and minute. */
  limits: { getPerMinute: number; searchPerMinute: number };
  /** ERP connections (calls in flight at once); as many again may queue for one. */
  erpMaxConnections: number;
  /** How long a caller may wait in the budget queue before getting a "busy" answer. */
  queueMaxWaitMs: number;
  /** Fraction of each endpoint's limit one user may not take within a window (kept for others). */
  fairShareReserve: number;
  redisUrl: string | undefined;
  cache: { ttlSeconds: number; contactTtlSeconds: number; maxBytes: number };
  logLevel: LogLevel;
  privacy: { reveal: RevealPolicy; auditFile: string | undefined };
  access: { stock: AccessRule; contact: AccessRule };
  /** SHARE_COST: item and component costs on shared cards too (internal-only workspaces). */
  shareCost: boolean;
  /** The catalogue index (issue 16): crawl share of the search budget, refresh, save file. */
  catalogue: {
    crawlShare: number;
    refreshMinutes: number;
    file: string | undefined;
    /** CATALOGUE_MAX_ITEMS: the most items the index holds (about 0.45 KiB each). */
    maxItems: number;
  };
}

export interface ConfigProblem {
  variable: string;
  problem: string;
  fix: string;
}

export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: ConfigProblem[]) {
    super(
      `Invalid configuration:\n${problems
        .map((p) => `  - ${p.variable}: ${p.problem}. ${p.fix}`)
        .join('\n')}`,
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const optionalString = z.preprocess(blankToUndefined, z.string().trim().optional());

// One plain sentence for every way a number can be wrong (`abc`, `1.5`, out of range).
const intInRange = (fallback: number, min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`;
  return z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error })
      .int({ error })
      .min(min, { error })
      .max(max, { error })
      .default(fallback),
  );
};

const idList = (pattern: RegExp) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(/[\s,]+/)
          .map((part) => part.trim())
          .filter(Boolean),
      )
      .refine((ids) => ids.every((id) => pattern.test(id)), {
        message: 'every entry must be a Slack id',
      }),
  );

/** ERP_BASE_URL=sandbox: the explicit opt-in to the built-in sandbox ERP. */
export const SANDBOX = 'sandbox';

const USER_ID = /^[UW][A-Z0-9]{2,}$/;
const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;

/** Field names are the environment variable names, so zod's paths name the variable. */
export const EnvSchema = z.object({
  SLACK_BOT_TOKEN: optionalString.refine((v) => v === undefined || v.startsWith('xoxb-'), {
    message: 'must be a bot token starting with xoxb-',
  }),
  SLACK_SIGNING_SECRET: optionalString.refine((v) => v === undefined || /^[0-9a-f]{32}$/i.test(v), {
    message: 'must be the 32-character hexadecimal Signing Secret of your Slack app',
  }),
  SLACK_APP_TOKEN: optionalString.refine((v) => v === undefined || v.startsWith('xapp-'), {
    message: 'must be an app-level token starting with xapp-',
  }),
  SLACK_API_URL: z.preprocess(
    blankToUndefined,
    z.url({ protocol: /^https?$/ }).default('https://slack.com/api/'),
  ),
  PORT: intInRange(3000, 0, 65535),
  // `sandbox`: the built-in sandbox ERP, chosen on purpose (invented data).
  ERP_BASE_URL: z.preprocess(
    (v) =>
      typeof v === 'string' && v.trim().toLowerCase() === SANDBOX ? SANDBOX : blankToUndefined(v),
    z.union([z.literal(SANDBOX), z.url({ protocol: /^https?$/ })]).optional(),
  ),
  ERP_COMPANY_CODE: optionalString,
  ERP_ACCESS_TOKEN: optionalString,
  ERP_TENANT_ID: optionalString,
  ERP_TIMEOUT_MS: intInRange(8000, 100, 120_000),
  ERP_GET_LIMIT_PER_MINUTE: intInRange(60, 1, 100_000),
  ERP_SEARCH_LIMIT_PER_MINUTE: intInRange(20, 1, 100_000),
  // As long as the ERP's window, so a 429 without Retry-After can wait for the window to turn.
  QUEUE_MAX_WAIT_SECONDS: intInRange(60, 1, 600),
  FAIR_SHARE_RESERVE: z.preprocess(
    blankToUndefined,
    z.coerce
      .number()
      .min(0)
      .max(0.9)
      .default(1 / 6),
  ),
  // Default: what the budget can release at once (both limits), at most 256.
  ERP_MAX_CONNECTIONS: z.preprocess(
    blankToUndefined,
    z.coerce.number().int().min(1).max(1024).optional(),
  ),
  REDIS_URL: z.preprocess(blankToUndefined, z.url({ protocol: /^rediss?$/ }).optional()),
  CACHE_TTL_SECONDS: intInRange(60, 1, 86_400),
  CONTACT_CACHE_TTL_SECONDS: z.preprocess(
    blankToUndefined,
    z.coerce.number().int().min(1).max(86_400).optional(),
  ),
  // 24 MiB holds about 9,000 items (an hour of lookups at the ERP's 60 a minute is 3,600) and
  // keeps a replica's peak under 150 MiB with the catalogue's default (README "Memory").
  CACHE_MAX_MB: intInRange(24, 1, 4096),
  LOG_LEVEL: z.preprocess(
    (v) => (typeof v === 'string' ? blankToUndefined(v.toLowerCase()) : v),
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  CONTACT_REVEAL: z.preprocess(blankToUndefined, z.string().default('members')),
  AUDIT_LOG_FILE: optionalString,
  STOCK_ALLOWED_CHANNELS: idList(CHANNEL_ID),
  STOCK_ALLOWED_USERS: idList(USER_ID),
  CONTACT_ALLOWED_CHANNELS: idList(CHANNEL_ID),
  CONTACT_ALLOWED_USERS: idList(USER_ID),
  SHARE_COST: z
    .preprocess(
      (v) => (typeof v === 'string' ? blankToUndefined(v.trim().toLowerCase()) : v),
      z.enum(['true', 'false'], { message: 'must be true or false' }).default('false'),
    )
    .transform((v) => v === 'true'),
  // The catalogue index (issue 16): 0 turns the crawl off (the index then fills from lookups).
  CATALOGUE_CRAWL_SHARE: z.preprocess(
    blankToUndefined,
    z.coerce.number().min(0).max(1).default(0.25),
  ),
  CATALOGUE_REFRESH_MINUTES: intInRange(60, 1, 10_080),
  CATALOGUE_FILE: optionalString,
  // About 9 MiB at 0.45 KiB an item (bench/catalogue.ts: 44 MiB per 100,000): with the default
  // cache, a replica's peak stays under 150 MiB (README "Memory").
  CATALOGUE_MAX_ITEMS: intInRange(20_000, 1, 1_000_000),
});

type Env = z.infer<typeof EnvSchema>;

/** Every variable the app reads, by name (the keys of `EnvSchema`). */
export type EnvName = keyof Env;

const FIXES: Record<string, string> = {
  SLACK_BOT_TOKEN: 'Copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions.',
  SLACK_SIGNING_SECRET: 'Copy the Signing Secret from Basic Information › App Credentials.',
  SLACK_APP_TOKEN:
    'Create an app-level token with the connections:write scope under Basic Information.',
  SLACK_API_URL: 'Leave it unset for https://slack.com/api/.',
  PORT: 'Use a port number from 0 to 65535 (0 picks a free port), e.g. PORT=3000.',
  ERP_BASE_URL:
    'Use the https:// address of the ERP API (http:// is allowed only on a loopback host), or ERP_BASE_URL=sandbox to run on the built-in sandbox and its invented data on purpose.',
  ERP_COMPANY_CODE: 'Set the company code your ERP administrator gave you.',
  ERP_ACCESS_TOKEN: 'Set the ERP access token.',
  ERP_TENANT_ID: 'Set the ERP tenant id.',
  REDIS_URL: 'Use a redis:// or rediss:// URL, or unset it to keep the cache in memory.',
  LOG_LEVEL: 'Use one of fatal, error, warn, info, debug, trace, silent.',
  CATALOGUE_CRAWL_SHARE:
    'Use a share of the search budget between 0 (no crawl) and 1, e.g. 0.25 for a quarter.',
  CATALOGUE_REFRESH_MINUTES: 'Use a whole number of minutes from 1 to 10080 (a week).',
  CATALOGUE_MAX_ITEMS:
    'Use a whole number of items from 1 to 1000000, e.g. CATALOGUE_MAX_ITEMS=20000 (each item takes about 0.45 KiB).',
  CONTACT_REVEAL:
    'Use members (everyone but guests), everyone, nobody, or a comma-separated list of user ids (U…) and user group ids (S…).',
  SHARE_COST:
    'Use true to show item costs on cards shared to a channel too, or false (the default) to keep them private.',
};

const fixFor = (variable: string) => FIXES[variable] ?? 'See the configuration table in README.md.';

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1';
  return false;
}

function parseReveal(raw: string): RevealPolicy | undefined {
  const value = raw.trim().toLowerCase();
  if (value === 'members' || value === 'default') return { kind: 'members' };
  if (value === 'everyone' || value === 'all') return { kind: 'everyone' };
  if (value === 'nobody' || value === 'none') return { kind: 'nobody' };
  const ids = raw
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  if (ids.length === 0 || !ids.every((id) => USER_ID.test(id) || /^S[A-Z0-9]{2,}$/.test(id))) {
    return undefined;
  }
  return {
    kind: 'list',
    users: ids.filter((id) => USER_ID.test(id)),
    userGroups: ids.filter((id) => id.startsWith('S')),
  };
}

const isSandbox = (value: string) => value.trim().toLowerCase() === SANDBOX;

/** The variables the cross-checks read, as given (trimmed; blank is unset). */
type RawEnv = Partial<Record<keyof Env, string>>;

function rawView(source: NodeJS.ProcessEnv): RawEnv {
  const view: RawEnv = {};
  for (const name of Object.keys(EnvSchema.shape) as Array<keyof Env>) {
    const value = source[name]?.trim();
    if (value) view[name] = value;
  }
  return view;
}

/**
 * Rules between variables. They read the raw values, so they run even when a field failed
 * its own check: the operator learns every problem in one go.
 */
function crossCheck(env: RawEnv, problems: ConfigProblem[]): void {
  const add = (variable: string, problem: string) =>
    problems.push({ variable, problem, fix: fixFor(variable) });

  if (env.SLACK_BOT_TOKEN && !env.ERP_BASE_URL) {
    // Slack users would take invented stock figures for real ones.
    add(
      'ERP_BASE_URL',
      'is not set; in Slack mode the app does not fall back to the sandbox (invented data) by itself',
    );
  }
  if (!env.SLACK_BOT_TOKEN) {
    if (env.SLACK_APP_TOKEN) add('SLACK_BOT_TOKEN', 'is required when SLACK_APP_TOKEN is set');
    else if (env.SLACK_SIGNING_SECRET) {
      add('SLACK_BOT_TOKEN', 'is required when SLACK_SIGNING_SECRET is set');
    }
  } else if (!env.SLACK_APP_TOKEN && !env.SLACK_SIGNING_SECRET) {
    add(
      'SLACK_SIGNING_SECRET',
      'is required in HTTP mode (SLACK_BOT_TOKEN set without SLACK_APP_TOKEN)',
    );
  }

  const url =
    env.ERP_BASE_URL && URL.canParse(env.ERP_BASE_URL) && !isSandbox(env.ERP_BASE_URL)
      ? new URL(env.ERP_BASE_URL)
      : undefined;
  if (url) {
    // Other schemes are reported by the field's own check.
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      add('ERP_BASE_URL', 'must use https:// (plain http:// is allowed only on a loopback host)');
    }
    if (url.username || url.password) {
      add('ERP_BASE_URL', 'must not contain credentials');
    }
    for (const name of ['ERP_COMPANY_CODE', 'ERP_ACCESS_TOKEN', 'ERP_TENANT_ID'] as const) {
      if (!env[name]) add(name, 'is required when ERP_BASE_URL is set');
    }
  }
  if (env.CONTACT_REVEAL && parseReveal(env.CONTACT_REVEAL) === undefined) {
    add('CONTACT_REVEAL', 'is not a known policy or a list of Slack ids');
  }
}

/** A value the app did not use as given: clamped or ignored. Logged at start-up. */
export interface ConfigWarning {
  variable: string;
  message: string;
}

/**
 * Plain words in place of zod's own ("Invalid input: expected number, received NaN"), for
 * checks that bring no sentence of their own. The variable's name and its fix are added by
 * the caller; the value itself is never repeated (it may be a secret).
 */
function plainProblem(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return 'has the wrong form';
    case 'invalid_format':
      return issue.format === 'url' ? 'is not a valid URL for this setting' : 'has the wrong form';
    case 'invalid_value':
      return 'is not one of the accepted values';
    case 'invalid_union':
      return 'is not one of the accepted forms';
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    default:
      return 'is not valid';
  }
}

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
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
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
    erp,
    erpTimeoutMs: env.ERP_TIMEOUT_MS,
    limits: {
      getPerMinute: env.ERP_GET_LIMIT_PER_MINUTE,
      searchPerMinute: env.ERP_SEARCH_LIMIT_PER_MINUTE,
    },
    erpMaxConnections:
      env.ERP_MAX_CONNECTIONS ??
      Math.min(256, env.ERP_GET_LIMIT_PER_MINUTE + env.ERP_SEARCH_LIMIT_PER_MINUTE),
    queueMaxWaitMs: env.QUEUE_MAX_WAIT_SECONDS * 1000,
    fairShareReserve: env.FAIR_SHARE_RESERVE,
    redisUrl: env.REDIS_URL,
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
    catalogue: {
      crawlShare: env.CATALOGUE_CRAWL_SHARE,
      refreshMinutes: env.CATALOGUE_REFRESH_MINUTES,
      file: env.CATALOGUE_FILE,
      maxItems: env.CATALOGUE_MAX_ITEMS,
    },
  });
  return { config, warnings: warningsFor(env, config) };
}

function warningsFor(env: Env, config: AppConfig): ConfigWarning[] {
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
  }
  return warnings;
}

/** Loads `.env` from the working directory if there is one (Node's own loader). */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

/** Masks a secret: its well-known prefix and nothing else. */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return 'unset';
  const prefix = /^(xox[a-z]-|xapp-)/.exec(secret)?.[0] ?? '';
  return `${prefix}•••• (set)`;
}

/** A start-up summary that is safe to log. */
export function describeConfig(config: AppConfig): Record<string, unknown> {
  const redisHost = config.redisUrl ? new URL(config.redisUrl).host : undefined;
  return {
    mode: config.mode,
    port: config.port,
    slackApiUrl: config.slack.apiUrl,
    slackBotToken: maskSecret(config.slack.botToken),
    slackAppToken: maskSecret(config.slack.appToken),
    slackSigningSecret: maskSecret(config.slack.signingSecret),
    erp:
      config.erp.kind === 'sandbox'
        ? 'built-in sandbox'
        : {
            baseUrl: config.erp.baseUrl,
            companyCode: config.erp.companyCode,
            tenantId: config.erp.tenantId,
            accessToken: maskSecret(config.erp.accessToken),
          },
    redis: redisHost ?? 'unset (in-memory cache and budget)',
    cacheTtlSeconds: config.cache.ttlSeconds,
    contactCacheTtlSeconds: config.cache.contactTtlSeconds,
    contactReveal: config.privacy.reveal.kind,
  };
}
