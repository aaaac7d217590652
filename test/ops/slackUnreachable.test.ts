/**
 * `npm start` while Slack's API cannot be reached: the replica starts anyway, serves
 * `/healthz` and a 503 `/readyz` naming Slack, keeps trying, and becomes ready once Slack
 * answers, without a restart. Slack refusing the token still stops it, whenever it answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { BOT_TOKEN, freePort } from '../helpers/app.js';
import { freshShellEnv, nodeArgsForSource, repoRoot } from '../helpers/entry.js';
import { type FakeSlack, startFakeSlack } from '../helpers/slack/index.js';

const SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

/** A TCP relay to `target` on `port`, closed until `open()`: Slack "coming back". */
function slackGate(port: number, target: () => number) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  return {
    open: () =>
      new Promise<void>((resolve) => {
        server = createServer((inbound) => {
          const outbound = connect(target(), '127.0.0.1');
          for (const socket of [inbound, outbound]) {
            sockets.add(socket);
            socket.on('error', () => socket.destroy());
            socket.on('close', () => sockets.delete(socket));
          }
          inbound.pipe(outbound).pipe(inbound);
        });
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (server) server.close(() => resolve());
        else resolve();
      }),
  };
}

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startMain(env: Record<string, string>): Run {
  const child = spawn(process.execPath, nodeArgsForSource('src/main.ts'), {
    cwd: repoRoot,
    env: freshShellEnv(env),
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output: () => output, exited };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function get(url: string) {
  const response = await request(url);
  return {
    status: response.statusCode,
    body: (await response.body.json()) as Record<string, unknown>,
  };
}

describe('npm start while Slack cannot be reached', () => {
  let slack: FakeSlack;
  let erp: RunningSandbox;
  let run: Run | undefined;
  const gates: Array<ReturnType<typeof slackGate>> = [];
  beforeAll(async () => {
    slack = await startFakeSlack({ botToken: BOT_TOKEN });
    erp = await startSandbox();
  });
  afterEach(async () => {
    run?.child.kill('SIGKILL');
    run = undefined;
    for (const gate of gates.splice(0)) await gate.close();
  });
  afterAll(async () => {
    await slack?.close();
    await erp?.close();
  });

  const env = async (slackPort: number) => ({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: `http://127.0.0.1:${slackPort}/api/`,
    PORT: String(await freePort()),
    ERP_BASE_URL: erp.url,
    ERP_COMPANY_CODE: erp.credentials.companyCode,
    ERP_ACCESS_TOKEN: erp.credentials.accessToken,
    ERP_TENANT_ID: erp.credentials.tenantId,
  });

  it('serves /healthz and a 503 /readyz naming Slack, then turns ready when Slack answers', async () => {
    const slackPort = await freePort();
    const gate = slackGate(slackPort, () => Number(new URL(slack.apiUrl).port));
    gates.push(gate);
    const vars = await env(slackPort);
    run = startMain(vars);
    const base = `http://127.0.0.1:${vars.PORT}`;

    const health = await until('/healthz', async () => (await get(`${base}/healthz`)).status);
    expect(health).toBe(200);
    const notReady = await until('a 503 naming slack', async () => {
      const answer = await get(`${base}/readyz`);
      return answer.status === 503 && (answer.body.failing as string[]).includes('slack')
        ? answer
        : undefined;
    });
    expect(notReady.body.checks).toMatchObject({ slack: { ok: false } });

    const authTestsBefore = slack.calls('auth.test').length;
    await gate.open();
    const ready = await until('/readyz 200', async () => {
      const answer = await get(`${base}/readyz`);
      return answer.status === 200 ? answer : undefined;
    });
    expect(ready.body).toMatchObject({ status: 'ready', failing: [] });
    expect(slack.calls('auth.test').length).toBeGreaterThan(authTestsBefore);
    expect(run.child.exitCode).toBeNull();

    const lines = run.output();
    // One line when it starts waiting, one when it is through; no stack trace.
    expect(lines.match(/Could not reach Slack/g)).toHaveLength(1);
    expect(lines.match(/Slack answered: connected/g)).toHaveLength(1);
    expect(lines).not.toMatch(/\n\s+at /);
    expect(lines).not.toContain('Cannot start');
  }, 40_000);

  it('still stops, naming the variable, when Slack finally answers that the token is wrong', async () => {
    const slackPort = await freePort();
    const wrong = await startFakeSlack({ botToken: 'xoxb-some-other-token-0000' });
    const gate = slackGate(slackPort, () => Number(new URL(wrong.apiUrl).port));
    gates.push(gate);
    try {
      run = startMain(await env(slackPort));
      await until('the unreachable line', async () =>
        run?.output().includes('Could not reach Slack') ? true : undefined,
      );
      await gate.open();
      const code = await run.exited;
      expect(code).toBe(1);
      expect(run.output()).toContain('invalid_auth');
      expect(run.output()).toContain('SLACK_BOT_TOKEN');
    } finally {
      await wrong.close();
    }
  }, 40_000);
});
