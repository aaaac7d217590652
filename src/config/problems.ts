/**
 * What goes wrong in a configuration and what to do about it: one problem per variable, each
 * with a fix in plain words. The value itself is never repeated (it may be a secret).
 */
import type { z } from 'zod';

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
  HOST: 'Use an IP address such as 127.0.0.1 or ::, or a host name; leave it unset to listen on every address.',
  ERP_BASE_URL:
    'Use the https:// address of the ERP API, or ERP_BASE_URL=sandbox to run on the built-in sandbox and its invented data on purpose.',
  ERP_COMPANY_CODE: 'Set the company code your ERP administrator gave you.',
  ERP_ACCESS_TOKEN: 'Set the ERP access token.',
  ERP_TENANT_ID: 'Set the ERP tenant id.',
  REDIS_URL:
    'Use a redis:// or rediss:// URL, or unset it to keep the cache in memory. A password in it must be percent-encoded (encodeURIComponent); or set it in REDIS_PASSWORD instead.',
  REDIS_PASSWORD: 'Set the password Redis requires, as it is (the app encodes it into REDIS_URL).',
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
  MCP_ENABLED:
    'Use true (the default) to serve Slackbot the tools at POST /mcp in HTTP mode, or false to turn them off.',
  STOCK_ALLOWED_USERS: MEMBER_ID_FIX,
  CONTACT_ALLOWED_USERS: MEMBER_ID_FIX,
  STOCK_ALLOWED_CHANNELS: CHANNEL_ID_FIX,
  CONTACT_ALLOWED_CHANNELS: CHANNEL_ID_FIX,
  DATABASE_URL:
    'Use a postgres:// URL (postgres://user:password@host:5432/database, the password percent-encoded, or set in DATABASE_PASSWORD instead), or unset it for the embedded database in DATA_DIR.',
  DATABASE_PASSWORD:
    'Set the PostgreSQL password, as it is (the app encodes it into DATABASE_URL).',
  DATA_DIR: 'Use a directory the app may write to, e.g. DATA_DIR=./data.',
  WATCH_SHARE: 'Use a share of the getItem budget between 0 (no watch checks) and 1, e.g. 0.1.',
  WATCH_MIN_INTERVAL_SECONDS: 'Use a whole number of seconds from 1 to 86400, e.g. 60.',
  WATCH_MAX_INTERVAL_MINUTES: 'Use a whole number of minutes from 1 to 10080 (a week), e.g. 60.',
  WATCH_MAX_PER_CHANNEL: 'Use a whole number from 1 to 10000, e.g. 50.',
  WATCH_MAX_PER_USER: 'Use a whole number from 1 to 10000, e.g. 20.',
  quotes:
    'Remove the quotes: docker run --env-file keeps them as part of the value, so write NAME=value in .env.',
};

export const fixFor = (variable: string) =>
  FIXES[variable] ?? 'See the configuration table in README.md.';

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
export function plainProblem(issue: z.core.$ZodRawIssue): string {
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
