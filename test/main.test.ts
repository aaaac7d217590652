/**
 * `npm start` as an operator runs it: the real entry point in a child process, configured by
 * environment variables only. HTTP mode against a fake Slack, a bad configuration, `--help`.
 * CI runs its start-up cases (HTTP mode, Socket Mode, a bad configuration) on Node 22 and 24
 * too, as the start-up smoke test (.ci/run).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../src/sandbox/index.js';
import { freePort } from './helpers/app.js';
import { capture, captureSecret } from './helpers/capture.js';
import { freshShellEnv, nodeArgsForStart, repoRoot } from './helpers/entry.js';
import { eventually } from './helpers/eventually.js';
import {
  type FakeSlack,
  postToSlackApp,
  slashCommandForm,
  startFakeSlack,
} from './helpers/slack/index.js';

function start(args: string[], env: Record<string, string>) {
  // What `npm start` runs (tsx or the compiled dist/main.js), on this test's Node.
  const child = spawn(process.execPath, [...nodeArgsForStart(), ...args], {
    cwd: repoRoot,
    env: freshShellEnv(env),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, exited, out: () => stdout, err: () => stderr };
}

async function waitFor(read: () => string, text: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!read().includes(text)) {
    if (Date.now() > deadline) throw new Error(`did not print "${text}":\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('npm start with a bad configuration', () => {
  it('stops with a message naming each variable and its fix, and prints no secret', async () => {
    const run = start([], {
      PORT: 'eighty',
      SLACK_BOT_TOKEN: 'xoxb-main-test-secret-token',
      ERP_BASE_URL: 'http://erp.example.com',
    });
    expect(await run.exited).toBe(1);
    expect(run.err()).toContain('PORT');
    expect(run.err()).toContain('SLACK_SIGNING_SECRET');
    expect(run.err()).toMatch(/ERP_BASE_URL: must use https:\/\//);
    expect(run.err() + run.out()).not.toContain('xoxb-main-test-secret-token');
  });

  it('explains itself with --help', async () => {
    const run = start(['--help'], {});
    expect(await run.exited).toBe(0);
    expect(run.out()).toContain('Usage: npm start');
  });
});

describe('npm start -- --once … --shortcut --json, in the console', () => {
  it('prints the message shortcut’s answer as JSON on stdout, and nothing else there', async () => {
    const run = start(['--once', 'Is WIDGET-9 in?', '--shortcut', '--json'], {
      LOG_LEVEL: 'info',
    });
    expect(await run.exited, run.err()).toBe(0);
    const documents = run
      .out()
      .trim()
      .split(/\n(?=\{)/);
    const answers = documents.map((doc) => JSON.parse(doc) as { text: string });
    expect(answers.at(-1)?.text).toContain('WIDGET-9');
    // Everything else (here: the info logs) went to stderr.
    expect(run.err()).toContain('sandbox');
  }, 60_000);

  it('refuses --shortcut without --once, as a usage error', async () => {
    const run = start(['--shortcut'], {});
    expect(await run.exited).toBe(2);
    expect(run.err()).toContain('--shortcut needs --once');
  });
});

// Nine processes that share nothing: they start side by side, each waiting on its own exit.
describe('npm start -- --once: exit codes a script can use', () => {
  it.concurrent.for([
    ['a record', ['--once', '/stock WIDGET-9'], 0],
    ['a list', ['--once', '/contact acme'], 0],
    ['the catalogue list of categories', ['--once', '/stock categories'], 0],
    ['the help', ['--once', '/stock help'], 0],
    // README's watch example: the console turns @purchasing into a group mention, as Slack's
    // composer does, and a watch set is an answer.
    [
      'a watch set, notifying a group',
      ['--once', '/stock watch WIDGET-9 below 20 at perth notify @purchasing'],
      0,
    ],
    ['a daily digest turned on', ['--once', '/stock digest on 08:00 Australia/Perth'], 0],
    ['nothing found', ['--once', '/stock ZZQ-NO-SUCH-CODE-000'], 1],
    ['a line that is no command', ['--once', 'hello there'], 2],
    ['an unknown option', ['--once', '/stock WIDGET-9', '--colour'], 2],
  ] as const)('%s', { timeout: 60_000 }, async ([, args, code], { expect }) => {
    const run = start([...args], {});
    expect(await run.exited, run.err()).toBe(code);
  });
});

describe('npm start -- --once in the console, with DATABASE_URL set', () => {
  it('keeps its watches in memory and never opens that database', async () => {
    // A database that does not exist: opening it would refuse the watch (exit 1).
    const run = start(['--once', '/stock watch WIDGET-9 below 10'], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/no_such_database_console',
    });
    expect(await run.exited, run.err()).toBe(0);
    expect(run.out()).toContain('set a watch');
    expect(run.err()).not.toContain('store unavailable');
  });
});

describe('npm start in HTTP mode', () => {
  const botToken = 'xoxb-main-http-0123456789';
  const signingSecret = '3a1b5c7d9e0f2a4b6c8d0e1f3a5b7c9d';
  let slack: FakeSlack;
  let erp: RunningSandbox;
  let app: ReturnType<typeof start>;
  let port: number;

  beforeAll(async () => {
    captureSecret(botToken);
    captureSecret(signingSecret);
    slack = await startFakeSlack({ botToken });
    erp = await startSandbox();
    port = await freePort();
    app = start([], {
      SLACK_BOT_TOKEN: botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: slack.apiUrl,
      PORT: String(port),
      ERP_BASE_URL: erp.url,
      ERP_COMPANY_CODE: erp.credentials.companyCode,
      ERP_ACCESS_TOKEN: erp.credentials.accessToken,
      ERP_TENANT_ID: erp.credentials.tenantId,
    });
    await waitFor(app.out, 'Listening on port');
  });
  afterAll(async () => {
    stop(app?.child);
    await app?.exited;
    // The child's log lines join the suite's leak scan.
    for (const line of app?.out().split('\n') ?? []) capture('log', 'npm start', line);
    await slack?.close();
    await erp?.close();
  });

  it('verifies the bot token at start-up and serves /healthz', async () => {
    expect(slack.calls('auth.test')).toHaveLength(1);
    const health = await request(`http://127.0.0.1:${port}/healthz`);
    expect(await health.body.json()).toMatchObject({ status: 'ok', mode: 'http', erp: 'remote' });
  });

  it('turns ready on GET /readyz once the ERP accepted the credentials', async () => {
    const deadline = Date.now() + 10_000;
    let last = { status: 0, body: '' };
    while (last.status !== 200 && Date.now() < deadline) {
      const answer = await request(`http://127.0.0.1:${port}/readyz`);
      last = { status: answer.statusCode, body: await answer.body.text() };
      if (last.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(last.status, last.body).toBe(200);
    expect(JSON.parse(last.body)).toMatchObject({
      status: 'ready',
      checks: { erp: { ok: true }, credentials: { ok: true } },
    });
  });

  it('answers a signed /stock on POST /slack/events', async () => {
    const reply = await postToSlackApp(
      `http://127.0.0.1:${port}/slack/events`,
      slashCommandForm({ command: '/stock', text: 'WIDGET-9', response_url: slack.responseUrl() }),
      { signingSecret },
    );
    expect(reply.status).toBe(200);
    expect(JSON.stringify(reply.json)).toContain('WIDGET-9');
  });

  it('logs JSON lines with the secrets masked, and stops cleanly on SIGTERM', async () => {
    const lines = app
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const starting = lines.find((line) => line.msg === 'starting');
    expect(JSON.stringify(starting)).toContain('xoxb-•••• (set)');
    expect(app.out()).not.toContain(botToken);
    expect(app.out()).not.toContain(signingSecret);
    expect(app.out()).not.toContain(erp.credentials.accessToken);
    stop(app.child);
    expect(await app.exited).toBe(0);
  });
});

describe('npm start in Socket Mode, stopped while connecting', () => {
  it('exits on one SIGTERM while the socket is still being opened', async () => {
    // A Slack that verifies the bot token and then never answers apps.connections.open: the
    // Socket Mode connection stays "connecting" for as long as the test likes.
    const opened: string[] = [];
    const server = createServer((req, res) => {
      opened.push(req.url ?? '');
      if (req.url?.includes('auth.test')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ok: true,
            url: 'https://acme.slack.com/',
            team: 'Acme',
            user: 'erp',
            team_id: 'T0ACME001',
            user_id: 'U0BOT0001',
            bot_id: 'B0BOT0001',
          }),
        );
      }
      // apps.connections.open: no answer, ever.
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port: slackPort } = server.address() as AddressInfo;
    const erp = await startSandbox();
    try {
      const run = start([], {
        SLACK_BOT_TOKEN: 'xoxb-main-socket-0123456789',
        SLACK_APP_TOKEN: 'xapp-main-socket-0123456789',
        SLACK_API_URL: `http://127.0.0.1:${slackPort}/api/`,
        PORT: String(await freePort()),
        ERP_BASE_URL: erp.url,
        ERP_COMPANY_CODE: erp.credentials.companyCode,
        ERP_ACCESS_TOKEN: erp.credentials.accessToken,
        ERP_TENANT_ID: erp.credentials.tenantId,
        LOG_LEVEL: 'info',
      });
      await eventually(
        () => expect(opened.some((url) => url.includes('apps.connections.open'))).toBe(true),
        20_000,
      );
      run.child.kill('SIGTERM');
      // Once is enough: exit 0, without a second signal.
      expect(await run.exited, run.out() + run.err()).toBe(0);
      expect(run.out()).toContain('SIGTERM received');
      // It did not wait for the connection attempt to give up first.
      expect(run.out()).not.toContain('slack_unreachable');
    } finally {
      server.closeAllConnections();
      server.close();
      await erp.close();
    }
  }, 40_000);
});

function stop(child: ChildProcess | undefined): void {
  if (child && child.exitCode === null) child.kill('SIGTERM');
}
