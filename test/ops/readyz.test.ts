/**
 * `GET /readyz` through the real HTTP server (Bolt's receivers, the sandbox ERP over real
 * HTTP, a real Redis): ready, the ERP refusing connections and coming back, credentials
 * refused, Redis stopped and restarted, Socket Mode disconnected and reconnected. The checks
 * run on short injected intervals here; test/ops/readiness.unit.test.ts holds the default ones
 * to the 30-second promise on fake timers.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { freePort, type RunningApp, type StartAppOptions, startApp } from '../helpers/app.js';
import { redisServerInstalled, startRedisServer, stopRedisServer } from '../helpers/redis.js';

const FAST = { tickMs: 50, quietMs: 100, probeEveryMs: 300 };

interface Answer {
  status: number;
  body: {
    status: string;
    failing: string[];
    degraded: string[];
    checks: Record<string, { ok: boolean; detail: string; degraded?: true }>;
  };
}

async function get(app: RunningApp, path: string): Promise<{ status: number; text: string }> {
  const response = await request(`${app.baseUrl}${path}`);
  return { status: response.statusCode, text: await response.body.text() };
}

async function readyz(app: RunningApp): Promise<Answer> {
  const { status, text } = await get(app, '/readyz');
  return { status, body: JSON.parse(text) as Answer['body'] };
}

/** Polls /readyz until `ok` holds (5 s by default); returns that answer. */
async function readyzUntil(
  app: RunningApp,
  ok: (answer: Answer) => boolean,
  timeoutMs = 5000,
): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await readyz(app);
    if (ok(answer)) return answer;
    if (Date.now() > deadline) {
      throw new Error(
        `/readyz never matched; last: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const isReady = (answer: Answer) => answer.status === 200;

/**
 * A TCP relay in front of the sandbox on a port of its own: `refuse()` closes the port (and
 * every connection through it), `accept()` opens the same port again.
 */
async function startRelay(targetUrl: string) {
  const target = new URL(targetUrl);
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const relay = {
    url: `http://127.0.0.1:${port}`,
    accept: () =>
      new Promise<void>((resolve, reject) => {
        server = createServer((inbound) => {
          const outbound = connect(Number(target.port), target.hostname);
          track(inbound);
          track(outbound);
          const drop = () => {
            inbound.destroy();
            outbound.destroy();
          };
          for (const socket of [inbound, outbound]) {
            socket.once('error', drop);
            socket.once('close', drop);
          }
          inbound.pipe(outbound).pipe(inbound);
        });
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    refuse: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        const closing = server;
        server = undefined;
        if (closing) closing.close(() => resolve());
        else resolve();
      }),
  };
  await relay.accept();
  return relay;
}

let running: RunningApp[] = [];
const sandboxes: RunningSandbox[] = [];

async function start(options: StartAppOptions): Promise<RunningApp> {
  const app = await startApp({ readiness: FAST, ...options });
  running.push(app);
  return app;
}

afterEach(async () => {
  for (const app of running) await app.stop();
  running = [];
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
});

describe('GET /readyz', () => {
  it('answers 200 with every check named once the ERP answered', async () => {
    const app = await start({});
    const answer = await readyzUntil(app, isReady);
    expect(answer.body).toMatchObject({
      status: 'ready',
      failing: [],
      checks: { erp: { ok: true }, credentials: { ok: true, detail: 'accepted' } },
    });
    expect(answer.body.checks).not.toHaveProperty('redis');
    expect(answer.body.checks).not.toHaveProperty('slack');
    const metrics = await get(app, '/metrics');
    expect(metrics.text).toMatch(/^app_ready 1$/m);
    expect(metrics.text).toMatch(/^app_readiness_check\{check="erp"\} 1$/m);
  });

  it('turns 503 naming the ERP while it refuses connections, and 200 again when it is back', async () => {
    const sandbox = await startSandbox();
    sandboxes.push(sandbox);
    const relay = await startRelay(sandbox.url);
    const app = await start({ erp: sandbox, env: { ERP_BASE_URL: relay.url } });
    await readyzUntil(app, isReady);

    await relay.refuse();
    const down = await readyzUntil(app, (answer) => answer.status === 503);
    expect(down.body).toMatchObject({
      status: 'not ready',
      failing: ['erp'],
      checks: { erp: { ok: false, detail: 'refused' }, credentials: { ok: true } },
    });
    // Liveness stays a liveness check: the process is fine.
    expect((await get(app, '/healthz')).status).toBe(200);
    const metrics = await get(app, '/metrics');
    expect(metrics.text).toMatch(/^app_ready 0$/m);
    expect(metrics.text).toMatch(/^app_readiness_check\{check="erp"\} 0$/m);
    expect(metrics.text).toMatch(/^app_readiness_check\{check="credentials"\} 1$/m);

    await relay.accept();
    const up = await readyzUntil(app, isReady);
    expect(up.body.checks.erp).toMatchObject({ ok: true, detail: 'reachable' });
    await relay.refuse();
  });

  it("sees a refusal at once when a user's lookup meets it", async () => {
    const sandbox = await startSandbox();
    sandboxes.push(sandbox);
    const relay = await startRelay(sandbox.url);
    // Checks too slow to notice on their own within the test: the lookup must tell.
    const app = await start({
      erp: sandbox,
      env: { ERP_BASE_URL: relay.url },
      readiness: { tickMs: 60_000, quietMs: 60_000, probeEveryMs: 60_000 },
    });
    await readyzUntil(app, isReady);
    await relay.refuse();
    await app.command('/stock', 'WIDGET-9');
    await readyzUntil(app, (answer) => answer.body.checks.erp?.detail === 'refused', 10_000);
    await relay.accept();
  });

  it.each([
    ['ERP_ACCESS_TOKEN', 'readyz-wrong-access-token', 'refused (erp_auth)'],
    ['ERP_TENANT_ID', 'readyz-wrong-tenant', 'refused (erp_tenant)'],
  ])('turns 503 naming the credentials when the ERP refuses %s', async (name, value, detail) => {
    const app = await start({ env: { [name]: value } });
    const answer = await readyzUntil(
      app,
      (a) => a.body.checks.credentials?.detail !== 'not checked yet',
    );
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({
      status: 'not ready',
      failing: ['credentials'],
      checks: { erp: { ok: true }, credentials: { ok: false, detail } },
    });
    // Names the part, never the secret.
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(value);
    expect(text).not.toContain(app.sandbox.credentials.accessToken);
    const metrics = await get(app, '/metrics');
    expect(metrics.text).toMatch(/^app_readiness_check\{check="credentials"\} 0$/m);
  });

  it.skipIf(!redisServerInstalled)(
    'stays 200 while Redis is stopped, naming it as degraded, and drops the mark when it is back',
    async () => {
      const port = await freePort();
      let redis = await startRedisServer(port);
      try {
        const app = await start({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
        const ready = await readyzUntil(app, (a) => isReady(a) && a.body.checks.redis?.ok === true);
        expect(ready.body).toMatchObject({ degraded: [], checks: { redis: { detail: 'ready' } } });

        await stopRedisServer(redis);
        const down = await readyzUntil(app, (answer) => answer.body.checks.redis?.ok === false);
        // Serving from memory is still serving: degraded, not unready.
        expect(down.status).toBe(200);
        expect(down.body).toMatchObject({
          status: 'ready',
          failing: [],
          degraded: ['redis'],
          checks: { redis: { ok: false, degraded: true } },
        });
        // Redis's password or URL never shows; the check names the part and its state.
        expect(JSON.stringify(down.body)).not.toContain('redis://');

        redis = await startRedisServer(port);
        const back = await readyzUntil(app, (a) => a.body.checks.redis?.ok === true, 10_000);
        expect(back.body).toMatchObject({ status: 'ready', degraded: [] });
      } finally {
        await stopRedisServer(redis);
      }
    },
  );

  it('in Socket Mode turns 503 naming Slack while the socket is down, and 200 once reconnected', async () => {
    const app = await start({ mode: 'socket' });
    const ready = await readyzUntil(app, isReady);
    expect(ready.body.checks.slack).toMatchObject({ ok: true, detail: 'socket connected' });

    app.slack.sendDisconnect('refresh_requested');
    const down = await readyzUntil(app, (answer) => answer.status === 503);
    expect(down.body).toMatchObject({
      failing: ['slack'],
      checks: { slack: { ok: false, detail: 'socket not connected' }, erp: { ok: true } },
    });
    // The client waits 5 s before it reconnects.
    await readyzUntil(app, isReady, 12_000);
    expect(app.slack.socketConnections()).toBe(2);
  }, 20_000);
});
