/**
 * `.env.example`, generated from the configuration schema: every variable in `EnvSchema`, its
 * default (read from the schema itself) and one line of meaning from `MEANINGS`. A variable
 * added to the schema without a meaning fails the type check; `npm run env-example` rewrites
 * the file and test/config/envExample.unit.test.ts fails when it is stale.
 */
import { type EnvName, EnvSchema } from './schema.js';

/** One line each; mention a computed default here when the schema has none. */
const MEANINGS = {
  SLACK_BOT_TOKEN:
    'Bot User OAuth Token (xoxb-…) from OAuth & Permissions. Unset: the console in the terminal.',
  SLACK_SIGNING_SECRET:
    'HTTP mode: Signing Secret from Basic Information › App Credentials; verifies POST /slack/events and POST /mcp.',
  SLACK_APP_TOKEN:
    'Socket Mode when set: app-level token (xapp-…) with connections:write. Unset: HTTP mode.',
  SLACK_API_URL: 'Slack Web API base URL (change only for a proxy or a test double).',
  PORT: 'HTTP port: POST /slack/events (HTTP mode), GET /healthz, /readyz and /metrics.',
  HOST: 'Address to listen on (127.0.0.1: this machine only). Unset: every address, as a container needs.',
  ERP_BASE_URL:
    'The ERP API (https://, or http:// on a loopback host only), or sandbox for the built-in sandbox ERP. Required in Slack mode; the console without it uses the sandbox.',
  ERP_COMPANY_CODE: 'ERP company code (Basic auth user name); required with ERP_BASE_URL.',
  ERP_ACCESS_TOKEN: 'ERP access token (Basic auth password); a secret, required with ERP_BASE_URL.',
  ERP_TENANT_ID: 'ERP tenant id (Tenantid header); required with ERP_BASE_URL.',
  ERP_TIMEOUT_MS:
    'Per ERP call, in milliseconds: the whole call ends after this long (and connect, headers and body each get as long).',
  ERP_GET_LIMIT_PER_MINUTE: "The ERP's getItem/getContact limit per credential and minute.",
  ERP_SEARCH_LIMIT_PER_MINUTE:
    "The ERP's searchItems/searchContact limit per credential and minute.",
  ERP_MAX_CONNECTIONS:
    'ERP connections (calls in flight at once); as many again may wait. Unset: both limits added, at most 256.',
  QUEUE_MAX_WAIT_SECONDS: 'Longest wait for rate budget before the answer is "busy, try again".',
  FAIR_SHARE_RESERVE:
    "Fraction of each ERP endpoint's per-minute limit one user may not take within a minute, kept for everyone else (0 to 0.9).",
  REDIS_URL:
    'redis:// or rediss:// shared by every replica (cache and rate budget). Unset: in memory.',
  REDIS_PASSWORD:
    "Redis's password, as it is; the app encodes it into REDIS_URL (one in the URL itself must be percent-encoded). Required by compose.yaml, whose Redis is started with it.",
  CACHE_TTL_SECONDS: 'How long an item answer is fresh, in seconds.',
  CONTACT_CACHE_TTL_SECONDS:
    'How long a contact (personal data) is fresh; never longer than CACHE_TTL_SECONDS. Unset: 30 or less.',
  CACHE_MAX_MB: 'Bound of the in-memory cache, in MiB.',
  LOG_LEVEL: 'fatal, error, warn, info, debug, trace or silent (JSON lines on stdout).',
  CONTACT_REVEAL:
    'Who may reveal phones and e-mails: members (not guests), everyone, nobody, or user (U…) and group (S…) ids.',
  AUDIT_LOG_FILE: 'Also append reveal audit lines (JSON) to this file. Unset: the log only.',
  STOCK_ALLOWED_CHANNELS: 'Channel ids (C…, G…, D…) where /stock works. Unset: every channel.',
  STOCK_ALLOWED_USERS: 'User ids (U…, W…) who may use /stock. Unset: everyone.',
  CONTACT_ALLOWED_CHANNELS: 'Channel ids where /contact works. Unset: every channel.',
  CONTACT_ALLOWED_USERS: 'User ids who may use /contact. Unset: everyone.',
  CATALOGUE_CRAWL_SHARE:
    'Share (0 to 1) of the item-search budget the catalogue crawl may use, only while no user waits; 0 turns it off.',
  CATALOGUE_REFRESH_MINUTES: 'How often the catalogue crawl refreshes the index, in minutes.',
  CATALOGUE_FILE:
    'Without REDIS_URL: save the catalogue index to this file so it survives restarts. Unset: memory only.',
  CATALOGUE_MAX_ITEMS:
    'Most items the catalogue index holds (about 0.45 KiB each); beyond it the index is full, never complete, and word searches go to the ERP.',
  SHARE_COST:
    'true: item and component costs also show on cards shared to a channel (internal-only workspaces).',
  SHARE_ACCOUNT_TERMS:
    'true: credit limit, discount, terms and stop credit also show on contact cards shared to a channel.',
  MCP_ENABLED:
    'HTTP mode: the MCP server for Slackbot (POST /mcp, declared in manifest/http.yml); false turns it off. Socket Mode has none.',
  DATABASE_URL:
    'Watches: PostgreSQL (postgres://…) shared by every replica. Unset: an embedded database file in DATA_DIR.',
  DATABASE_PASSWORD:
    "PostgreSQL's password, as it is; the app encodes it into DATABASE_URL (a password in the URL itself must be percent-encoded).",
  DATA_DIR: 'Where the embedded watches database keeps its file (the console keeps it in memory).',
  WATCH_SHARE: 'Share (0 to 1) of the getItem budget that watch checks may use.',
  WATCH_MIN_INTERVAL_SECONDS: 'Shortest time between two checks of one watched item, in seconds.',
  WATCH_MAX_INTERVAL_MINUTES:
    'Longest check interval, in minutes; beyond it new watches are refused rather than checked late.',
  WATCH_MAX_PER_CHANNEL: 'Most watches in one channel.',
  WATCH_MAX_PER_USER:
    'Most watches one person may keep (their direct messages with the app included).',
} satisfies Record<EnvName, string>;

/**
 * The variables compose.yaml itself reads (`${NAME}`); test/config/envExample.unit.test.ts fails
 * when compose.yaml reads one that is not listed here.
 */
const COMPOSE_VARIABLES: Record<string, { meaning: string; example: string }> = {
  SITE_ADDRESS: {
    meaning:
      "The entry's address for Caddy: your host name (HTTPS with an automatic certificate), or :80 for plain HTTP behind your own TLS.",
    example: 'slack-erp.example.com',
  },
  POSTGRES_PASSWORD: {
    meaning:
      "compose.yaml's PostgreSQL (the watches): the password it is created with, which the replicas get as DATABASE_PASSWORD. Required by compose.yaml.",
    example: 'another-long-random-string',
  },
};

/** The schema's default for one variable, as it would be written in the file. */
function defaultOf(name: EnvName): string | undefined {
  const parsed = EnvSchema.shape[name].safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return undefined;
  const value = parsed.data;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.join(',');
  return String(value);
}

export function renderEnvExample(): string {
  const lines = [
    '# Every environment variable of ERP lookups in Slack, its default and its meaning.',
    '# Generated from the configuration schema by `npm run env-example`: do not edit by hand.',
    '# Copy to .env (or set them in your orchestrator); a commented-out line is the default.',
    '# Blank means unset. Secrets belong in a secret store, never in a committed file.',
    '# Write NAME=value without quotes: `docker run --env-file` would keep them as part of the',
    '# value, so the app refuses a quoted value of its own (in .env and in the environment).',
  ];
  for (const name of Object.keys(EnvSchema.shape) as EnvName[]) {
    const fallback = defaultOf(name);
    lines.push('', `# ${MEANINGS[name]}`);
    lines.push(fallback === undefined ? `${name}=` : `# ${name}=${fallback}`);
  }
  lines.push('', '# --- Read by compose.yaml, not by the app ---');
  for (const [name, { meaning, example }] of Object.entries(COMPOSE_VARIABLES)) {
    lines.push('', `# ${meaning}`, `# ${name}=${example}`);
  }
  return `${lines.join('\n')}\n`;
}
