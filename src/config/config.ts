/**
 * Configuration: every environment variable the app reads, parsed with zod into one typed,
 * frozen object. A wrong value stops start-up with a message naming the variable and the fix.
 * Secrets are never printed; `describeConfig` shows them masked.
 */
import { existsSync, readFileSync } from 'node:fs';
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
  /** SHARE_ACCOUNT_TERMS: credit limit, discount, terms, stop credit on shared contact cards. */
  shareAccountTerms: boolean;
  /** Watches: where they are kept and how much of the budget their checks may use. */
  watches: {
    /** DATABASE_URL (postgres://…); unset: the embedded SQLite database in `dataDir`. */
    databaseUrl: string | undefined;
    /** DATA_DIR: where the embedded database keeps its file. */
    dataDir: string;
    /** WATCH_SHARE: share of the getItem budget that watch checks may use. */
    share: number;
    /** WATCH_MIN_INTERVAL_SECONDS, in milliseconds: shortest time between two checks of one item. */
    minIntervalMs: number;
    /** WATCH_MAX_INTERVAL_MINUTES, in milliseconds: longest interval before new watches are refused. */
    maxIntervalMs: number;
    /** WATCH_MAX_PER_CHANNEL: most watches in one channel. */
    maxPerChannel: number;
  };
  /** The catalogue index: crawl share of the search budget, refresh, save file. */
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

const booleanFlag = z
  .preprocess(
    (v) => (typeof v === 'string' ? blankToUndefined(v.trim().toLowerCase()) : v),
    z.enum(['true', 'false'], { message: 'must be true or false' }).default('false'),
  )
  .transform((v) => v === 'true');

const share = (fallback: number) =>
  z.preprocess(blankToUndefined, z.coerce.number().min(0).max(1).default(fallback));

const idList = (pattern: RegExp, what: string) =>
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
      .superRefine((ids, context) => {
        const bad = ids.find((id) => !pattern.test(id));
        if (bad !== undefined) {
          // An id is not a secret; the entry is shortened so a pasted token would not show.
          context.addIssue({
            code: 'custom',
            message: `has "${bad.slice(0, 24)}", which is not a ${what}`,
          });
        }
      }),
  );

/**
 * The most ERP connections a replica opens: beyond it the budget, not the pool, decides, and
 * each connection costs memory. A larger ERP_MAX_CONNECTIONS is clamped with a warning.
 */
export const MAX_ERP_CONNECTIONS = 256;

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
  // Sized to hold more than an hour of lookups at the ERP's limit while a replica's peak stays
  // under its memory target with the catalogue's default (docs/benchmarks.md, "Memory").
  CACHE_MAX_MB: intInRange(24, 1, 4096),
  LOG_LEVEL: z.preprocess(
    (v) => (typeof v === 'string' ? blankToUndefined(v.toLowerCase()) : v),
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  CONTACT_REVEAL: z.preprocess(blankToUndefined, z.string().default('members')),
  AUDIT_LOG_FILE: optionalString,
  STOCK_ALLOWED_CHANNELS: idList(CHANNEL_ID, 'channel id (C…, G… or D…)'),
  STOCK_ALLOWED_USERS: idList(USER_ID, 'member id (U… or W…)'),
  CONTACT_ALLOWED_CHANNELS: idList(CHANNEL_ID, 'channel id (C…, G… or D…)'),
  CONTACT_ALLOWED_USERS: idList(USER_ID, 'member id (U… or W…)'),
  SHARE_COST: booleanFlag,
  SHARE_ACCOUNT_TERMS: booleanFlag,
  // The catalogue index: 0 turns the crawl off (the index then fills from lookups).
  CATALOGUE_CRAWL_SHARE: share(0.25),
  CATALOGUE_REFRESH_MINUTES: intInRange(60, 1, 10_080),
  CATALOGUE_FILE: optionalString,
  // With the default cache, a replica's peak stays under its memory target (the per-item
  // cost is measured by the catalogue benchmark: docs/benchmarks.md).
  CATALOGUE_MAX_ITEMS: intInRange(20_000, 1, 1_000_000),
  // Watches: PostgreSQL when several replicas share them, else an embedded database file.
  DATABASE_URL: z.preprocess(blankToUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().trim().default('./data')),
  WATCH_SHARE: share(0.1),
  WATCH_MIN_INTERVAL_SECONDS: intInRange(60, 1, 86_400),
  WATCH_MAX_INTERVAL_MINUTES: intInRange(60, 1, 10_080),
  WATCH_MAX_PER_CHANNEL: intInRange(50, 1, 10_000),
});

type Env = z.infer<typeof EnvSchema>;

/** Every variable the app reads, by name (the keys of `EnvSchema`). */
export type EnvName = keyof Env;

const MEMBER_ID_FIX =
  "List member ids separated by commas, e.g. U012AB3CD: a person's id is under their profile's ⋮ menu › Copy member ID (names and @handles do not work).";
const CHANNEL_ID_FIX =
  "List channel ids separated by commas, e.g. C012AB3CD: a channel's id is at the bottom of its details (click the channel name).";

const FIXES: Record<string, string> = {
  SLACK_BOT_TOKEN: 'Copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions.',
  SLACK_SIGNING_SECRET: 'Copy the Signing Secret from Basic Information › App Credentials.',
  SLACK_APP_TOKEN:
    'Create an app-level token with the connections:write scope under Basic Information.',
  SLACK_API_URL:
    'Leave it unset for https://slack.com/api/; a proxy or test double must use https:// unless it is on a loopback host.',
  PORT: 'Use a port number from 0 to 65535 (0 picks a free port), e.g. PORT=3000.',
  ERP_BASE_URL:
    'Use the https:// address of the ERP API, or ERP_BASE_URL=sandbox to run on the built-in sandbox and its invented data on purpose.',
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
  SHARE_ACCOUNT_TERMS:
    'Use true to show credit limit, discount, terms and stop credit on contact cards shared to a channel too, or false (the default).',
  STOCK_ALLOWED_USERS: MEMBER_ID_FIX,
  CONTACT_ALLOWED_USERS: MEMBER_ID_FIX,
  STOCK_ALLOWED_CHANNELS: CHANNEL_ID_FIX,
  CONTACT_ALLOWED_CHANNELS: CHANNEL_ID_FIX,
  DATABASE_URL:
    'Use a postgres:// URL (postgres://user:password@host:5432/database), or unset it for the embedded database in DATA_DIR.',
  DATA_DIR: 'Use a directory the app may write to, e.g. DATA_DIR=./data.',
  WATCH_SHARE: 'Use a share of the getItem budget between 0 (no watch checks) and 1, e.g. 0.1.',
  WATCH_MIN_INTERVAL_SECONDS: 'Use a whole number of seconds from 1 to 86400, e.g. 60.',
  WATCH_MAX_INTERVAL_MINUTES: 'Use a whole number of minutes from 1 to 10080 (a week), e.g. 60.',
  WATCH_MAX_PER_CHANNEL: 'Use a whole number from 1 to 10000, e.g. 50.',
  quotes:
    'Remove the quotes: docker run --env-file keeps them as part of the value, so write NAME=value in .env.',
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

  for (const [name, value] of Object.entries(env)) {
    if (isQuoted(value)) {
      problems.push({ variable: name, problem: 'is wrapped in quotes', fix: fixFor('quotes') });
    }
  }

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
      add('ERP_BASE_URL', 'must use https://; plain http:// is allowed only on a loopback host');
    }
    if (url.username || url.password) {
      add('ERP_BASE_URL', 'must not contain credentials');
    }
    for (const name of ['ERP_COMPANY_CODE', 'ERP_ACCESS_TOKEN', 'ERP_TENANT_ID'] as const) {
      if (!env[name]) add(name, 'is required when ERP_BASE_URL is set');
    }
  }
  const slackApi =
    env.SLACK_API_URL && URL.canParse(env.SLACK_API_URL) ? new URL(env.SLACK_API_URL) : undefined;
  if (slackApi?.protocol === 'http:' && !isLoopbackHost(slackApi.hostname)) {
    // The bot token travels with every call: never in clear over a network.
    add('SLACK_API_URL', 'must use https://; plain http:// is allowed only on a loopback host');
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
    erpMaxConnections: Math.min(
      MAX_ERP_CONNECTIONS,
      env.ERP_MAX_CONNECTIONS ?? env.ERP_GET_LIMIT_PER_MINUTE + env.ERP_SEARCH_LIMIT_PER_MINUTE,
    ),
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
    shareAccountTerms: env.SHARE_ACCOUNT_TERMS,
    watches: {
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      share: env.WATCH_SHARE,
      minIntervalMs: env.WATCH_MIN_INTERVAL_SECONDS * 1000,
      maxIntervalMs: env.WATCH_MAX_INTERVAL_MINUTES * 60_000,
      maxPerChannel: env.WATCH_MAX_PER_CHANNEL,
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

/**
 * Prefixes of the app's own variables. An unknown variable with one of them is most likely a
 * misspelling (ERP_TENNANT_ID), which would otherwise be ignored in silence.
 */
const APP_PREFIXES = [
  'SLACK_',
  'ERP_',
  'REDIS_',
  'CACHE_',
  'CONTACT_',
  'STOCK_',
  'CATALOGUE_',
  'WATCH_',
  'SHARE_',
  'QUEUE_',
  'FAIR_',
  'AUDIT_',
];

/** Variables with those prefixes the app does not read but other tools do. */
const NOT_OURS = new Set(['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'REDIS_PASSWORD']);

/** A warning for each unknown variable that looks like the app's, naming the nearest known one. */
export function unknownVariableWarnings(source: NodeJS.ProcessEnv): ConfigWarning[] {
  const known = Object.keys(EnvSchema.shape);
  const warnings: ConfigWarning[] = [];
  for (const name of Object.keys(source).sort()) {
    if (known.includes(name) || NOT_OURS.has(name)) continue;
    if (!APP_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    const nearest = nearestName(name, known);
    warnings.push({
      variable: name,
      message: nearest
        ? `is not a variable this app reads: did you mean ${nearest}?`
        : 'is not a variable this app reads (see .env.example for the list)',
    });
  }
  return warnings;
}

function nearestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  // Further than a third of the name is no longer a misspelling.
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}

/** Levenshtein distance, on two rows. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** A value in matching quotes: `"…"`, `'…'` or a backtick pair. */
const isQuoted = (value: string) => /^(["'`]).*\1$/s.test(value) && value.length >= 2;

/**
 * Loads `.env` from the working directory if there is one (Node's own loader). Node's loader
 * strips quotes around a value and `docker run --env-file` keeps them, so one file would mean
 * two things: a quoted value of the app's is refused here, with the same words as the check
 * on the environment, and the file means the same to both.
 */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  const known = new Set(Object.keys(EnvSchema.shape));
  const problems: ConfigProblem[] = [];
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1] && known.has(match[1]) && isQuoted(match[2] ?? '')) {
      problems.push({
        variable: match[1],
        problem: `is wrapped in quotes in ${path}`,
        fix: fixFor('quotes'),
      });
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
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
