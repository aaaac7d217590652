/**
 * The composition root: builds every service from the validated configuration and wires
 * them. No listener bodies, no Block Kit here.
 */
import type { App } from '@slack/bolt';
import type { Redis } from 'ioredis';
import type { AppConfig } from './config/config.js';
import type { ErpApi } from './erp/api.js';
import { ErpClient } from './erp/client.js';
import type { AppLogger } from './log/logger.js';
import { createMetrics, type Metrics } from './lookup/metrics.js';
import { createLookupService } from './lookup/service.js';
import type { LookupService } from './lookup/types.js';
import { type AuditLog, createAuditLog } from './privacy/audit.js';
import { createRevealPolicy } from './privacy/revealPolicy.js';
import type { RunningSandbox } from './sandbox/index.js';
import { createSlackApp, type SlackTransport } from './slack/app.js';
import { DEFAULT_TIMING } from './slack/delivery.js';
import type { ListenerDeps } from './slack/deps.js';
import type { HealthReport } from './slack/routes.js';
import type { HelpExamples } from './views/help.js';

export interface Services {
  config: AppConfig;
  logger: AppLogger;
  metrics: Metrics;
  lookup: LookupService;
  listeners: ListenerDeps;
  /** Set when the ERP is the built-in sandbox. */
  sandbox: RunningSandbox | undefined;
  health(): HealthReport;
  close(): Promise<void>;
}

export interface ServiceOverrides {
  /** Use this ERP instead of building a client (tests). */
  erp?: ErpApi;
  now?: () => Date;
}

function sandboxExamples(sandbox: RunningSandbox): HelpExamples {
  const examples = sandbox.examples();
  return {
    itemCodes: examples.itemCodes.slice(0, 3),
    itemSearches: examples.itemSearches.slice(0, 3),
    contactCodes: examples.contactCodes.slice(0, 3),
    contactSearches: examples.contactSearches.slice(0, 3),
  };
}

async function connectErp(
  config: AppConfig,
  logger: AppLogger,
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
    });
    return { client, sandbox: undefined };
  }
  // Loaded only here: the sandbox's generated data (faker) costs memory and start-up time
  // that an app pointed at a real ERP should not pay.
  const { startSandbox } = await import('./sandbox/index.js');
  const sandbox = await startSandbox({ logger: logger.child({ component: 'sandbox' }) });
  logger.info(
    { url: sandbox.url },
    'ERP_BASE_URL is not set: using the built-in sandbox ERP (set ERP_BASE_URL to use your ERP)',
  );
  const client = new ErpClient({
    baseUrl: sandbox.url,
    ...sandbox.credentials,
    timeoutMs: config.erpTimeoutMs,
    maxConnections: config.erpMaxConnections,
    logger,
  });
  return { client, sandbox };
}

export async function createServices(
  config: AppConfig,
  logger: AppLogger,
  overrides: ServiceOverrides = {},
): Promise<Services> {
  const { client, sandbox } = overrides.erp
    ? { client: undefined, sandbox: undefined }
    : await connectErp(config, logger);
  const erp: ErpApi = overrides.erp ?? (client as ErpClient);
  const metrics = createMetrics();
  const redis: Redis | undefined = config.redisUrl
    ? (await import('./lookup/redisConnect.js')).connectRedis(config.redisUrl, logger)
    : undefined;
  const lookup = createLookupService({
    erp,
    ttlMs: config.cache.ttlSeconds * 1000,
    contactTtlMs: config.cache.contactTtlSeconds * 1000,
    maxBytes: config.cache.maxBytes,
    limits: config.limits,
    queueMaxWaitMs: config.queueMaxWaitMs,
    redis,
    logger: logger.child({ component: 'lookup' }),
    metrics,
  });
  const audit: AuditLog = createAuditLog({ logger, file: config.privacy.auditFile });
  const now = overrides.now ?? (() => new Date());
  const listeners: ListenerDeps = {
    lookup,
    logger,
    reveal: createRevealPolicy(config.privacy.reveal, { logger }),
    audit,
    access: config.access,
    examples: sandbox ? sandboxExamples(sandbox) : undefined,
    now,
    timing: DEFAULT_TIMING,
  };
  const startedAt = Date.now();
  return {
    config,
    logger,
    metrics,
    lookup,
    listeners,
    sandbox,
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
      await lookup.close();
      await audit.close();
      await client?.close();
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
  return createSlackApp({
    transport,
    apiUrl,
    logger: services.logger,
    listeners: services.listeners,
    routes: { health: services.health, registry: services.metrics.registry },
  });
}
