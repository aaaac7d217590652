/**
 * Start-up as a new admin meets it (issue 12, items 6 and 7): `npm start`'s real entry point
 * in a child process. Each failure names the variable and the fix, and Slack mode never falls
 * back to the sandbox's invented data by itself.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadConfigReport } from '../../src/config/config.js';
import { explainSlackStartupError } from '../../src/config/startup.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { freePort } from '../helpers/app.js';
import { freshShellEnv, nodeArgsForSource, repoRoot } from '../helpers/entry.js';
import { type FakeSlack, startFakeSlack } from '../helpers/slack/index.js';

const BOT_TOKEN = 'xoxb-startup-test-0123456789';
const SECRET = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';

/**
 * Runs `src/main.ts` with only these variables (and PATH-like basics) until it exits, or
 * until it prints `until` (then it is stopped with SIGTERM).
 */
async function startMain(env: Record<string, string>, until?: string, timeoutMs = 30_000) {
  const child = spawn(process.execPath, nodeArgsForSource('src/main.ts'), {
    cwd: repoRoot,
    env: freshShellEnv(env),
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (until !== undefined && output.includes(until)) child.kill('SIGTERM');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  return { code: code as number | null, output };
}

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return '';
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
};

describe('configuration wording', () => {
  it('stops Slack mode without ERP_BASE_URL, naming it and the explicit sandbox opt-in', () => {
    const message = problems({ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SECRET });
    expect(message).toContain('ERP_BASE_URL: is not set');
    expect(message).toContain('ERP_BASE_URL=sandbox');
    const chosen = loadConfig({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      ERP_BASE_URL: 'sandbox',
    });
    expect(chosen.erp).toEqual({ kind: 'sandbox' });
    // The console still runs on the sandbox with nothing set.
    expect(loadConfig({}).erp).toEqual({ kind: 'sandbox' });
  });

  it('says what a PORT must be in plain words, without zod issue dumps', () => {
    for (const port of ['abc', '70000', '-1', '80.5']) {
      const message = problems({ PORT: port });
      expect(message, port).toContain('PORT: must be a whole number from 0 to 65535');
      expect(message).not.toMatch(/Invalid input|expected number|received|Too big|Too small/);
    }
  });

  it('refuses a signing secret that is not 32 hexadecimal characters, and says where to find it', () => {
    const message = problems({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: 'x',
      ERP_BASE_URL: 'sandbox',
    });
    expect(message).toContain('SLACK_SIGNING_SECRET: must be the 32-character hexadecimal');
    expect(message).toContain('Basic Information › App Credentials');
  });

  it('warns, naming the variable, when a value is clamped or ignored', () => {
    const { config, warnings } = loadConfigReport({
      CACHE_TTL_SECONDS: '20',
      CONTACT_CACHE_TTL_SECONDS: '900',
      ERP_TENANT_ID: 'T1',
    });
    expect(config.cache.contactTtlSeconds).toBe(20);
    expect(warnings.map((w) => w.variable).sort()).toEqual([
      'CONTACT_CACHE_TTL_SECONDS',
      'ERP_TENANT_ID',
    ]);
    expect(loadConfigReport({}).warnings).toEqual([]);
  });
});

describe("Slack's start-up errors", () => {
  const platformError = (code: string) =>
    Object.assign(new Error(`An API error occurred: ${code}`), {
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: code },
    });

  it('names the token and where to copy it from, for each token error', () => {
    for (const code of ['invalid_auth', 'not_authed', 'account_inactive']) {
      const bot = explainSlackStartupError(platformError(code), 'bot', 'https://slack.com/api/');
      expect(bot?.message, code).toContain(code);
      expect(bot?.message).toContain('SLACK_BOT_TOKEN');
      expect(bot?.message).toContain('OAuth & Permissions');
      const app = explainSlackStartupError(platformError(code), 'app', 'https://slack.com/api/');
      expect(app?.message).toContain('SLACK_APP_TOKEN');
      expect(app?.message).toContain('App-Level Tokens');
    }
  });

  it('leaves errors it does not know to the caller', () => {
    expect(explainSlackStartupError(new Error('other'), 'bot', 'x')).toBeUndefined();
  });
});

// Five processes that share only the fake Slack and the sandbox: they run side by side, and
// each looks for its own token in what Slack was asked.
describe.concurrent('npm start', () => {
  let slack: FakeSlack;
  let erp: RunningSandbox;
  beforeAll(async () => {
    slack = await startFakeSlack({ botToken: BOT_TOKEN });
    erp = await startSandbox();
  });
  afterAll(async () => {
    await slack?.close();
    await erp?.close();
  });

  const slackEnv = async () => ({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: String(await freePort()),
  });
  const erpEnv = (overrides: Record<string, string> = {}) => ({
    ERP_BASE_URL: erp.url,
    ERP_COMPANY_CODE: erp.credentials.companyCode,
    ERP_ACCESS_TOKEN: erp.credentials.accessToken,
    ERP_TENANT_ID: erp.credentials.tenantId,
    ...overrides,
  });

  /** Whether Slack was ever asked anything with this bot token. */
  const askedWith = (token: string) => slack.calls().some((call) => call.token === token);

  it('explains a wrong bot token: which variable, and where to copy it from', async ({
    expect,
  }) => {
    const run = await startMain({
      ...(await slackEnv()),
      SLACK_BOT_TOKEN: 'xoxb-wrong-token-0000',
      ...erpEnv(),
    });
    expect(run.code).toBe(1);
    expect(run.output).toContain('invalid_auth');
    expect(run.output).toContain('SLACK_BOT_TOKEN');
    expect(run.output).toContain('OAuth & Permissions');
    expect(run.output).not.toContain('xoxb-wrong-token-0000');
  });

  it('starts anyway when Slack cannot be reached, naming SLACK_API_URL and the network', async ({
    expect,
  }) => {
    const run = await startMain(
      {
        ...(await slackEnv()),
        SLACK_API_URL: `http://127.0.0.1:${await freePort()}/api/`,
        ...erpEnv(),
      },
      'Listening on port',
    );
    expect(run.output).toContain('Could not reach Slack');
    expect(run.output).toContain('SLACK_API_URL');
    expect(run.output).toMatch(/network|outgoing HTTPS/);
    expect(run.output).not.toContain('Cannot start');
  });

  it('stops when the ERP refuses the credentials, naming the variables, before Slack', async ({
    expect,
  }) => {
    const token = 'xoxb-startup-erp-refused-0123';
    const run = await startMain({
      ...(await slackEnv()),
      SLACK_BOT_TOKEN: token,
      ...erpEnv({ ERP_ACCESS_TOKEN: 'wrong-erp-token-000' }),
    });
    expect(run.code).toBe(1);
    expect(run.output).toContain('ERP_COMPANY_CODE');
    expect(run.output).toContain('ERP_ACCESS_TOKEN');
    expect(run.output).not.toContain('wrong-erp-token-000');
    expect(askedWith(token)).toBe(false);
  });

  it('starts anyway when the ERP cannot be reached, and says so', async ({ expect }) => {
    const run = await startMain(
      {
        ...(await slackEnv()),
        ...erpEnv({ ERP_BASE_URL: `http://127.0.0.1:${await freePort()}` }),
      },
      'Listening on port',
    );
    expect(run.output).toContain('erp_startup_check_failed');
    expect(run.output).toContain('Listening on port');
  });

  it('stops in Slack mode without ERP_BASE_URL instead of showing invented figures', async ({
    expect,
  }) => {
    const token = 'xoxb-startup-no-erp-0123456';
    const run = await startMain({ ...(await slackEnv()), SLACK_BOT_TOKEN: token });
    expect(run.code).toBe(1);
    expect(run.output).toContain('ERP_BASE_URL');
    expect(run.output).toContain('ERP_BASE_URL=sandbox');
    // Stopped by the configuration, before it even talked to Slack.
    expect(askedWith(token)).toBe(false);
  });
});
