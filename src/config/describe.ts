/** The configuration as a start-up log line: secrets masked, nothing personal. */
import type { AppConfig } from './types.js';

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
