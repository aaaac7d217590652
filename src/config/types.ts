/**
 * The typed configuration the app runs on: what `loadConfig` returns, frozen. The parts that
 * read the environment (schema, cross-checks, warnings) live beside this file.
 */
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
  /** HOST: the address the HTTP server listens on; undefined: every address. */
  host: string | undefined;
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
  /** MCP_ENABLED: the MCP server for Slack's agent at `POST /mcp`, in HTTP mode only. */
  mcp: { enabled: boolean };
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
    /** WATCH_MAX_PER_USER: most watches one person may keep. */
    maxPerUser: number;
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
