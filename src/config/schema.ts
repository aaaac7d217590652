/**
 * The environment's schema: every variable the app reads, parsed with zod. Field names are the
 * variable names, so zod's paths name the variable in a problem.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { MEMBER_ID } from '../ids/member.js';
import type { RevealPolicy } from './types.js';

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

/** The same, on unless set to false. */
const booleanFlagOn = z
  .preprocess(
    (v) => (typeof v === 'string' ? blankToUndefined(v.trim().toLowerCase()) : v),
    z.enum(['true', 'false'], { message: 'must be true or false' }).default('true'),
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
  // An IP address or a host name; unset: every address (what a container needs).
  HOST: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(253)
      .refine((v) => isIP(v) !== 0 || /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(v), {
        message: 'must be an IP address or a host name',
      })
      .optional(),
  ),
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
  // Put into REDIS_URL percent-encoded (connectionUrls.ts): a password any characters may form.
  REDIS_PASSWORD: optionalString,
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
  STOCK_ALLOWED_USERS: idList(MEMBER_ID, 'member id (U… or W…)'),
  CONTACT_ALLOWED_CHANNELS: idList(CHANNEL_ID, 'channel id (C…, G… or D…)'),
  CONTACT_ALLOWED_USERS: idList(MEMBER_ID, 'member id (U… or W…)'),
  SHARE_COST: booleanFlag,
  SHARE_ACCOUNT_TERMS: booleanFlag,
  // HTTP mode only: Slack's MCP client needs an HTTPS endpoint, which Socket Mode has not.
  MCP_ENABLED: booleanFlagOn,
  // The catalogue index: 0 turns the crawl off (the index then fills from lookups).
  CATALOGUE_CRAWL_SHARE: share(0.25),
  CATALOGUE_REFRESH_MINUTES: intInRange(60, 1, 10_080),
  CATALOGUE_FILE: optionalString,
  // With the default cache, a replica's peak stays under its memory target (the per-item
  // cost is measured by the catalogue benchmark: docs/benchmarks.md).
  CATALOGUE_MAX_ITEMS: intInRange(20_000, 1, 1_000_000),
  // Watches: PostgreSQL when several replicas share them, else an embedded database file.
  DATABASE_URL: z.preprocess(blankToUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATABASE_PASSWORD: optionalString,
  DATA_DIR: z.preprocess(blankToUndefined, z.string().trim().default('./data')),
  WATCH_SHARE: share(0.1),
  WATCH_MIN_INTERVAL_SECONDS: intInRange(60, 1, 86_400),
  WATCH_MAX_INTERVAL_MINUTES: intInRange(60, 1, 10_080),
  WATCH_MAX_PER_CHANNEL: intInRange(50, 1, 10_000),
  WATCH_MAX_PER_USER: intInRange(20, 1, 10_000),
});

export type Env = z.infer<typeof EnvSchema>;

/** Every variable the app reads, by name (the keys of `EnvSchema`). */
export type EnvName = keyof Env;

/** CONTACT_REVEAL as a policy; undefined when it is neither a known word nor a list of ids. */
export function parseReveal(raw: string): RevealPolicy | undefined {
  const value = raw.trim().toLowerCase();
  if (value === 'members' || value === 'default') return { kind: 'members' };
  if (value === 'everyone' || value === 'all') return { kind: 'everyone' };
  if (value === 'nobody' || value === 'none') return { kind: 'nobody' };
  const ids = raw
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  if (ids.length === 0 || !ids.every((id) => MEMBER_ID.test(id) || /^S[A-Z0-9]{2,}$/.test(id))) {
    return undefined;
  }
  return {
    kind: 'list',
    users: ids.filter((id) => MEMBER_ID.test(id)),
    userGroups: ids.filter((id) => id.startsWith('S')),
  };
}
