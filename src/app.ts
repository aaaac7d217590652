/**
 * The composition root: builds every service from the validated configuration and wires
 * them. No listener bodies, no Block Kit here.
 */
import type { App } from '@slack/bolt';
import type { Redis } from 'ioredis';
import type { Catalogue } from './catalogue/catalogue.js';
import { catalogueDeps, createCatalogue } from './catalogue/compose.js';
import { catalogueExamples, seedNames } from './catalogue/examples.js';
import { CatalogueStore, feedCatalogue } from './catalogue/store.js';
import type { AppConfig } from './config/config.js';
import type { ConsoleTransport } from './console/index.js';
import { ErpClient } from './erp/client.js';
import { ErpEvents } from './erp/events.js';
import { credentialTag, type ErpApi } from './erp/schemas.js';
import type { AppLogger } from './log/logger.js';
import { createUpstream, ledgerCheckBudget } from './lookup/lanes.js';
import { createMetrics, type Metrics } from './lookup/metrics.js';
import { RedisHealth } from './lookup/redis.js';
import { lookupServiceOver } from './lookup/service.js';
import type { LookupService } from './lookup/types.js';
import type { Upstream } from './lookup/upstream.js';
import { mcpRoutes } from './mcp/route.js';
import { connectOnce } from './ops/connectionCheck.js';
import { followErpCalls, Readiness, type ReadinessOptions } from './ops/readiness.js';
import { checkAccess, createInternalFigures, createMembership } from './privacy/access.js';
import { type AuditLog, createAuditLog } from './privacy/audit.js';
import { createRevealPolicy } from './privacy/revealPolicy.js';
import type { RunningSandbox } from './sandbox/index.js';
import { createSlackApp, type SlackTransport } from './slack/app.js';
import { conversationMembers } from './slack/conversationMembers.js';
import { DEFAULT_TIMING } from './slack/delivery.js';
import type { ListenerDeps } from './slack/deps.js';
import { createShares } from './slack/shares.js';
import type { HealthReport } from './slack/transport/routes.js';
import { conversationMemory } from './slack/words/followUps.js';
import { messageGate } from './slack/words/once.js';
import type { HelpExamples } from './views/help.js';
import {
  createWatches,
  type DeferredPoster,
  deferredPoster,
  feedWatches,
  followDatabase,
  type Watches,
} from './watches/index.js';
import { BranchNames } from './words/catalogueIndex.js';

export interface Services {
  config: AppConfig;
  logger: AppLogger;
  metrics: Metrics;
  lookup: LookupService;
  /**
   * The ERP for the start-up credential check: its one call takes a slot of the same budget
   * as every other, so the ERP never sees more than its limit.
   */
  erp: Pick<ErpApi, 'getContact'>;
  /** The budget lanes every ERP call draws on; background requesters (watches) join here. */
  upstream: Upstream;
  listeners: ListenerDeps;
  catalogue: Catalogue;
  /** Set when the ERP is the built-in sandbox. */
  sandbox: RunningSandbox | undefined;
  /** `GET /readyz` and its gauges; `start()` begins the periodic checks. */
  readiness: Readiness;
  /** Stock watches: their store opens lazily, their checker runs once `startWatches()` is called. */
  watches: Watches;
  /** The watches' Slack poster, bound by `slackAppFor` to the transport's token and API. */
  watchPoster: DeferredPoster;
  /** Starts the watch checker and the database's readiness reports (after Slack is set up). */
  startWatches(): Promise<void>;
  health(): HealthReport;
  close(): Promise<void>;
}

export interface ServiceOverrides {
  /** The listeners' and the watches' clock: tests move it instead of sleeping past intervals. */
  now?: () => Date;
  /** Readiness check intervals (tests shorten them). */
  readiness?: Pick<ReadinessOptions, 'tickMs' | 'quietMs' | 'probeEveryMs'>;
}

function sandboxExamples(sandbox: RunningSandbox): HelpExamples {
  const examples = sandbox.examples();
  return {
    itemCodes: examples.itemCodes.slice(0, 3),
    itemSearches: examples.itemSearches.slice(0, 3),
    itemCategory: examples.itemCategory,
    contactCodes: examples.contactCodes.slice(0, 3),
    contactSearches: examples.contactSearches.slice(0, 3),
  };
}

async function connectErp(
  config: AppConfig,
  logger: AppLogger,
  events: ErpEvents,
): Promise<{ client: ErpClient; sandbox: RunningSandbox | undefined }> {
  if (config.erp.kind === 'remote') {
    const { baseUrl, companyCode, accessToken, tenantId } = config.erp;
    const client = new ErpClient({
      baseUrl,
      companyCode,
      accessToken,
      tenantId,
      timeoutMs: config.erpTimeoutMs,
      maxConnections: config.erpMaxConnections,
      logger,
      events,
    });
    return { client, sandbox: undefined };
  }
  // Loaded only here: the sandbox's generated data (faker) costs memory and start-up time
  // that an app pointed at a real ERP should not pay.
  const { startSandbox } = await import('./sandbox/index.js');
  const sandbox = await startSandbox({ logger: logger.child({ component: 'sandbox' }) });
  logger.info(
    { url: sandbox.url },
    'using the built-in sandbox ERP: every figure is invented (set ERP_BASE_URL to use your ERP)',
  );
  const client = new ErpClient({
    baseUrl: sandbox.url,
    ...sandbox.credentials,
    timeoutMs: config.erpTimeoutMs,
    maxConnections: config.erpMaxConnections,
    logger,
    events,
  });
  return { client, sandbox };
}

export async function createServices(
  config: AppConfig,
  logger: AppLogger,
  overrides: ServiceOverrides = {},
): Promise<Services> {
  // What the ERP client reads and how its calls end, for the catalogue, watches and readiness.
  const events = new ErpEvents();
  const { client: erp, sandbox } = await connectErp(config, logger, events);
  const metrics = createMetrics();
  const redis: Redis | undefined = config.redisUrl
    ? (await import('./lookup/redisConnect.js')).connectRedis(config.redisUrl, logger)
    : undefined;
  const store = new CatalogueStore({ maxItems: config.catalogue.maxItems });
  feedCatalogue(events, store, Date.now);
  // The sandbox knows its categories and suppliers: `/stock categories` and `/stock
  // suppliers` answer with their ids from the first minute.
  if (sandbox) seedNames(store, sandbox.data);
  const lookupLogger = logger.child({ component: 'lookup' });
  const redisHealth = redis ? new RedisHealth(redis, lookupLogger) : undefined;
  const shared = redis && redisHealth ? { redis, health: redisHealth } : undefined;
  // Every requester (users, the readiness probe, the start-up check, the crawl) on one ledger.
  const upstream = createUpstream({
    credentialKey: erp.credentialKey,
    limits: config.limits,
    fairShareReserve: config.fairShareReserve,
    queueMaxWaitMs: config.queueMaxWaitMs,
    shared: shared && { ...shared, keyPrefix: 'erp-lookups:' },
    // One deadline for the whole call (cockatiel); undici's per-phase timeouts sit beneath it.
    callTimeoutMs: config.erpTimeoutMs,
    metrics,
    logger: lookupLogger,
    now: Date.now,
  });
  const watchPoster = deferredPoster();
  const watchLimits = {
    share: config.watches.share,
    getItemPerMinute: config.limits.getPerMinute,
    minIntervalSeconds: config.watches.minIntervalMs / 1000,
    maxIntervalMinutes: config.watches.maxIntervalMs / 60_000,
    maxPerChannel: config.watches.maxPerChannel,
    maxPerUser: config.watches.maxPerUser,
  };
  const clock = overrides.now;
  const watchNow = clock ? () => clock().getTime() : Date.now;
  const watches = createWatches({
    now: watchNow,
    // The console keeps its watches in memory, even with DATABASE_URL set: trying them leaves
    // nothing behind in a database the real app may share.
    store:
      config.mode === 'console'
        ? { kind: 'sqlite', dataDir: undefined }
        : config.watches.databaseUrl
          ? { kind: 'postgres', url: config.watches.databaseUrl }
          : { kind: 'sqlite', dataDir: config.watches.dataDir },
    erp,
    // Creation checks the item through the lookup service: the asker's budget and the cache.
    fetchItem: async (code, requester) => (await lookup.getItem({ code }, { requester })).data,
    budget: ledgerCheckBudget(upstream, config.watches.share),
    poster: watchPoster,
    limits: watchLimits,
    // The access lists hold for watches made before they were tightened.
    mayWatch: (watch) =>
      checkAccess(
        config.access.stock,
        { userId: watch.creatorId, channelId: watch.channelId },
        '/stock',
      ).allowed,
    logger,
    registry: metrics.registry,
    ...(redis
      ? {
          redis: {
            client: redis,
            leaseKey: `erp-lookups:watches:${credentialTag(erp.credentialKey)}:lease`,
          },
        }
      : {}),
    // Several replicas sharing Redis would each keep their own embedded file: refused instead.
    ...(config.redisUrl && !config.watches.databaseUrl
      ? { disabled: 'shared_without_database' as const }
      : {}),
  });
  // A user's lookup counts as a check of a watched item.
  feedWatches(events, watches.feed, watchNow);
  const lookup = lookupServiceOver({
    erp,
    upstream,
    ttlMs: config.cache.ttlSeconds * 1000,
    contactTtlMs: config.cache.contactTtlSeconds * 1000,
    maxBytes: config.cache.maxBytes,
    shared,
    logger: lookupLogger,
    metrics,
  });
  const catalogue = createCatalogue(config, {
    erp,
    lookup,
    upstream,
    store,
    redis,
    logger,
    metrics,
  });
  const erpUrl = config.erp.kind === 'remote' ? config.erp.baseUrl : sandbox?.url;
  const readiness = new Readiness({
    breakerState: () => lookup.breakerState(),
    // A code no ERP is likely to hold: a 404 proves reachability and credentials alike.
    // Probes spend a contact slot, not an item slot: a burst of /stock is the common rush,
    // and the credentials are the same on either endpoint.
    probeErp: () =>
      lookup.getContact({ code: 'READYZ-PROBE' }, { refresh: true, requester: 'readiness' }),
    budgetFree: () => lookup.expectedWaitMs('getContact') === 0,
    connectErp: erpUrl ? () => connectOnce(erpUrl, Math.min(config.erpTimeoutMs, 5000)) : undefined,
    redis,
    socketMode: config.mode === 'socket',
    metrics,
    logger: logger.child({ component: 'readiness' }),
    ...overrides.readiness,
  });
  followErpCalls(events, (signal) => readiness.observe(signal));
  const audit: AuditLog = createAuditLog({ logger, file: config.privacy.auditFile });
  const now = overrides.now ?? (() => new Date());
  // One users.info answer (against auth.test's workspace) serves reveals and internal figures.
  const membership = createMembership({ logger });
  const fixedExamples = sandbox ? sandboxExamples(sandbox) : undefined;
  // Asking in words reads branch words against the branch names seen on items (any item read,
  // a watch check's too: branch names are no one's personal data).
  const branchNames = new BranchNames();
  if (sandbox) branchNames.learn(sandbox.data.branches.map((branch) => branch.name));
  events.on('itemRead', ({ item }) => branchNames.learn(item.branches.map((b) => b.name)));
  const listeners: ListenerDeps = {
    lookup,
    logger,
    reveal: createRevealPolicy(config.privacy.reveal, { logger, membership }),
    internal: createInternalFigures({ membership, logger }),
    audit,
    access: config.access,
    // Read at each help: against a real ERP, the index's codes once it holds some.
    get examples() {
      return fixedExamples ?? catalogueExamples(store);
    },
    display: {
      sandbox: sandbox !== undefined,
      shareCost: config.shareCost,
      shareAccountTerms: config.shareAccountTerms,
    },
    now,
    timing: DEFAULT_TIMING,
    words: {
      branchNames,
      once: messageGate(redis && { redis, keyPrefix: 'erp-lookups:' }),
      // Follow-ups read the same last question on every replica.
      memory: conversationMemory(redis && { redis, keyPrefix: 'erp-lookups:' }),
    },
    watches,
    // Every No answer counted where watches live (counts only), for `/stock demand`.
    demand: watches.demand,
    // Who shared what where (Remove decides from it), and repeated presses, for every replica.
    shares: createShares({
      logger,
      apiUrl: config.slack.apiUrl,
      ...(redis ? { redis, keyPrefix: 'erp-lookups:' } : {}),
    }),
    // One members cache for every modal that posts where a person chose.
    members: conversationMembers(),
    // App Home lists a person's watches once the store is open; it never opens it itself.
    watchesOf: async (userId) =>
      watches.used() ? (await watches.service.listMine(userId)).watches : [],
    ...catalogueDeps(config, { catalogue, erp, upstream, redis }),
  };
  let databaseFollower: { stop(): void } | undefined;
  const startedAt = Date.now();
  return {
    config,
    logger,
    metrics,
    lookup,
    erp: {
      getContact: (ref) =>
        upstream.call('getContact', 'start-up check', (signal) => erp.getContact(ref, { signal })),
    },
    upstream,
    listeners,
    catalogue,
    sandbox,
    readiness,
    watches,
    watchPoster,
    startWatches: async () => {
      await watches.start();
      databaseFollower ??= followDatabase(
        () => watches.databaseReady(),
        () => readiness.degradable('database'),
        logger,
      );
    },
    health: () => {
      const redisStatus = redis?.status;
      return {
        status: redis && redisStatus !== 'ready' ? 'degraded' : 'ok',
        mode: config.mode,
        erp: config.erp.kind === 'sandbox' ? 'sandbox' : 'remote',
        redis: redis ? redisStatus : 'not configured',
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      };
    },
    close: async () => {
      readiness.stop();
      databaseFollower?.stop();
      // Before the lookups, the budget and Redis it uses (a check in flight, the lease).
      await watches.close();
      await catalogue.close();
      await lookup.close();
      upstream.close();
      redisHealth?.dispose();
      await audit.close();
      await erp.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
      await sandbox?.close();
    },
  };
}

/** The Bolt app over these services, for one transport (Slack, Socket Mode, the console). */
export function slackAppFor(
  services: Services,
  transport: SlackTransport,
  apiUrl: string = services.config.slack.apiUrl,
): App {
  services.watchPoster.bind(transport.botToken, apiUrl);
  services.listeners.shares.useApiUrl(apiUrl);
  return createSlackApp({
    transport,
    apiUrl,
    logger: services.logger,
    listeners: services.listeners,
    routes: {
      health: services.health,
      readiness: () => ({
        ...services.readiness.report(),
        catalogue: services.catalogue.readiness(),
      }),
      registry: services.metrics.registry,
    },
    watchSocket: services.readiness.watchSocket,
    // The MCP server for Slack's agent, behind the same guard as /slack/events.
    ...(services.config.mcp.enabled
      ? { httpRoutes: (client) => mcpRoutes({ tools: services.listeners, client }) }
      : {}),
  });
}

/** The Bolt app over these services, answered by the console's receiver and fake Slack. */
export function consoleAppFor(services: Services, transport: ConsoleTransport): App {
  return slackAppFor(
    services,
    {
      kind: 'custom',
      receiver: transport.receiver,
      botToken: transport.token,
      botId: transport.botId,
      botUserId: transport.botUserId,
    },
    transport.slackApiUrl,
  );
}
