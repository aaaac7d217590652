/**
 * Start-up failures in words an operator can act on: which variable, where to get the right
 * value. Slack's `invalid_auth` or a bare `fetch failed` name neither.
 */
import { AuthError, ErpError, TenantError } from '../erp/errors.js';
import type { ErpApi } from '../erp/schemas.js';
import type { AppLogger } from '../log/logger.js';

/** A start-up failure whose message is already the whole explanation. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** Which Slack token a call used: the bot token (auth.test) or the app-level token (Socket Mode). */
export type SlackToken = 'bot' | 'app';

const TOKEN_ADVICE: Record<SlackToken, string> = {
  bot: 'SLACK_BOT_TOKEN: copy the Bot User OAuth Token (xoxb-…) from your Slack app’s settings, OAuth & Permissions (reinstall the app to the workspace if it is missing).',
  app: 'SLACK_APP_TOKEN: copy an app-level token (xapp-…) with the connections:write scope from your Slack app’s settings, Basic Information › App-Level Tokens.',
};

const TOKEN_ERRORS: Record<string, string> = {
  invalid_auth: 'Slack refused the token (invalid_auth)',
  not_authed: 'Slack received no token (not_authed)',
  account_inactive: 'the token belongs to a deleted app or deactivated user (account_inactive)',
  token_revoked: 'the token was revoked (token_revoked)',
  token_expired: 'the token has expired (token_expired)',
};

/**
 * Slack's answers that are not about the token: Slack itself is having trouble, so start-up
 * waits and tries again instead of stopping.
 */
const TRANSIENT_SLACK_ERRORS = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'ratelimited',
]);

/**
 * What an error from the first Slack calls means: Slack `refused` (the token, the app: stop
 * start-up, see `explainSlackStartupError`), Slack could not be `unreachable` (the network,
 * a proxy, Slack's own outage: keep trying), or `unknown` (not a Slack API error at all).
 */
export function classifySlackStartupError(error: unknown): 'refused' | 'unreachable' | 'unknown' {
  if (typeof error !== 'object' || error === null) return 'unknown';
  const code = Reflect.get(error, 'code');
  if (code === 'slack_webapi_platform_error') {
    const slackError = slackErrorOf(error);
    return slackError !== undefined && TRANSIENT_SLACK_ERRORS.has(slackError)
      ? 'unreachable'
      : 'refused';
  }
  if (
    code === 'slack_webapi_request_error' ||
    code === 'slack_webapi_http_error' ||
    code === 'slack_webapi_rate_limited_error'
  ) {
    return 'unreachable';
  }
  return 'unknown';
}

function slackErrorOf(error: object): string | undefined {
  const data: unknown = Reflect.get(error, 'data');
  const slackError =
    typeof data === 'object' && data !== null ? Reflect.get(data, 'error') : undefined;
  return typeof slackError === 'string' ? slackError : undefined;
}

/** Explains an error from the first Slack calls (auth.test, apps.connections.open). */
export function explainSlackStartupError(
  error: unknown,
  token: SlackToken,
  apiUrl: string,
): StartupError | undefined {
  const kind = classifySlackStartupError(error);
  if (kind === 'refused' && typeof error === 'object' && error !== null) {
    const slackError = slackErrorOf(error) ?? 'an error';
    const what = TOKEN_ERRORS[slackError];
    if (what) return new StartupError(`Slack: ${what}. Fix ${TOKEN_ADVICE[token]}`);
    return new StartupError(
      `Slack answered ${slackError} at start-up. Check the app's scopes and installation, and the token in ${token === 'bot' ? 'SLACK_BOT_TOKEN' : 'SLACK_APP_TOKEN'}.`,
    );
  }
  if (kind === 'unreachable') {
    return new StartupError(
      `Could not reach Slack at ${apiUrl}. Check SLACK_API_URL (leave it unset for https://slack.com/api/) and that this host can make outgoing HTTPS requests to Slack (network, proxy, firewall, DNS).`,
    );
  }
  return undefined;
}

/**
 * Checks the ERP credentials once: a lookup of a code that need not exist. Wrong credentials
 * stop start-up (every lookup would fail); an ERP that is down does not (it may come back,
 * and the app says so to users meanwhile).
 */
export async function checkErpCredentials(
  erp: Pick<ErpApi, 'getContact'>,
  logger: AppLogger,
): Promise<void> {
  try {
    // A contact lookup, through the budget like every call: the ERP counts it, and a rush of
    // /stock right after start-up (the common one) then finds every item slot free.
    await erp.getContact({ code: 'STARTUP-CHECK' });
  } catch (error) {
    if (error instanceof AuthError) {
      throw new StartupError(
        'The ERP refused the credentials (401). Check ERP_COMPANY_CODE and ERP_ACCESS_TOKEN: ask your ERP administrator for the right pair.',
      );
    }
    if (error instanceof TenantError) {
      throw new StartupError(
        'The ERP refused the tenant (403). Check ERP_TENANT_ID (and that ERP_ACCESS_TOKEN belongs to that tenant).',
      );
    }
    if (error instanceof ErpError && error.code === 'erp_not_found') return;
    logger.warn(
      {
        event: 'erp_startup_check_failed',
        err: error instanceof ErpError ? error.toLogObject() : {},
      },
      'could not check the ERP credentials at start-up; starting anyway, lookups fail until the ERP answers',
    );
  }
}
