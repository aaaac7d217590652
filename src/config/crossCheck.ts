/**
 * Rules between variables (Slack mode needs a real ERP, a remote ERP needs its credentials,
 * no secret in clear over a network) and the quoted-value check, on the raw environment.
 */
import { isIP } from 'node:net';
import { connectionUrlProblems } from './connectionUrls.js';
import { type ConfigProblem, fixFor } from './problems.js';
import { type Env, EnvSchema, parseReveal, SANDBOX } from './schema.js';

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1';
  return false;
}

/** A value in matching quotes: `"…"`, `'…'` or a backtick pair. */
export const isQuoted = (value: string) => /^(["'`]).*\1$/s.test(value) && value.length >= 2;

const isSandbox = (value: string) => value.trim().toLowerCase() === SANDBOX;

/** The variables the cross-checks read, as given (trimmed; blank is unset). */
type RawEnv = Partial<Record<keyof Env, string>>;

export function rawView(source: NodeJS.ProcessEnv): RawEnv {
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
export function crossCheck(env: RawEnv, problems: ConfigProblem[]): void {
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
  problems.push(...connectionUrlProblems(env));
}
