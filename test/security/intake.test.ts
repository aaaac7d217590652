/**
 * Request intake from outside, over real sockets (issue 34): slow-drip bodies and idle
 * connections with partial headers are held open while correctly signed requests and
 * /healthz are answered. Assertions are about order (the attackers' sockets are still open
 * when the answers arrive), not about wall-clock bounds.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/slack/transport/guard.js';
import { type RunningApp, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { eventually } from '../helpers/eventually.js';
import { metricValue } from '../helpers/metrics.js';

const opened: Socket[] = [];
afterEach(() => {
  for (const socket of opened.splice(0)) socket.destroy();
});

interface Held {
  socket: Socket;
  closed: boolean;
  /** The status line of the server's answer, if any came. */
  status: string | undefined;
}

/** A raw connection that writes `head` and then nothing more; resolves once connected. */
function hold(baseUrl: string, head: string): Promise<Held> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const held: Held = { socket, closed: false, status: undefined };
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      held.status ??= chunk.toString().split('\r\n')[0];
    });
    socket.on('close', () => {
      held.closed = true;
    });
    opened.push(socket);
    socket.once('connect', () => {
      socket.write(head);
      resolve(held);
    });
  });
}

const partialHeaders = 'POST /slack/events HTTP/1.1\r\nHost: app\r\nContent-Type: applic';
/** Headers complete and a body declared just under the cap, of which a few bytes arrive. */
const dripHead = (bytes: number) =>
  `POST /slack/events HTTP/1.1\r\nHost: app\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${bytes}\r\n\r\n${'x'.repeat(1024)}`;

const bufferedBytes = (run: RunningApp) => metricValue(run, 'slack_request_body_bytes_buffered');
const refused = (run: RunningApp, reason: string) =>
  metricValue(run, 'slack_requests_refused_total', { reason });
const closedCount = (held: Held[]) => held.filter((one) => one.closed).length;

async function healthz(run: RunningApp): Promise<number> {
  return (await fetch(`${run.baseUrl}/healthz`)).status;
}

async function signedStock(run: RunningApp): Promise<string> {
  const { reply, ack } = await run.command('/stock', 'WIDGET-9');
  expect(reply.status).toBe(200);
  return textOf(ack ?? {});
}

describe('slow bodies from many addresses', () => {
  let run: RunningApp;
  beforeAll(async () => {
    // Every socket here comes from 127.0.0.1: lifting the per-address caps stands in for a
    // crowd of addresses, so the total and its reserve are what is tested.
    run = await startApp({
      mode: 'http',
      limits: {
        maxConnections: 2_000,
        maxConnectionsPerPeer: 10_000,
        maxBufferedBytesPerPeer: Number.MAX_SAFE_INTEGER,
        maxBufferedBytes: 1024 * 1024,
        reservedBytes: 256 * 1024,
      },
    });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('hold 40 slow bodies open while signed requests and /healthz answer', async () => {
    // Each declares just under the cap and sends 1 KiB: the first ~750 hold the general part.
    const drips = await Promise.all(
      Array.from({ length: 40 }, () => hold(run.baseUrl, dripHead(MAX_BODY_BYTES - 10))),
    );
    // The server has read each drip's first kilobyte.
    await eventually(async () => expect(await bufferedBytes(run)).toBe(40 * 1024));
    // Each drip holds its first kilobyte; none was refused yet, none completed.
    expect(drips.every((held) => !held.closed)).toBe(true);
    expect(await healthz(run)).toBe(200);
    expect(await signedStock(run)).toContain('WIDGET-9');
    // Answered while every slow body is still held open.
    expect(drips.filter((held) => held.closed)).toHaveLength(0);
  });

  it('refuses slow bodies past the general part with 503, and signed requests use the reserve', async () => {
    // 800 × 1 KiB = 800 KiB: past the general part (768 KiB), inside the whole.
    // The slow bodies of the test before are gone.
    await eventually(async () => expect(await bufferedBytes(run)).toBe(0));
    const drips: Held[] = [];
    for (let i = 0; i < 800; i += 1)
      drips.push(await hold(run.baseUrl, dripHead(MAX_BODY_BYTES - 10)));
    // Every drip has been read (its kilobyte held) or refused and closed.
    await eventually(async () =>
      expect((await bufferedBytes(run)) / 1024 + closedCount(drips)).toBe(800),
    );
    const refused = drips.filter((held) => held.closed).length;
    expect(refused).toBeGreaterThan(0);
    expect(await signedStock(run)).toContain('WIDGET-9');
    expect(await healthz(run)).toBe(200);
    // Those still dripping are still open after the answers.
    expect(drips.filter((held) => !held.closed).length).toBeGreaterThan(700);
  });
});

describe('idle connections with partial headers', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({ mode: 'http', limits: { maxConnections: 40 } });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('take every place; /healthz and a signed request still get one, the oldest idle ones close', async () => {
    const idle: Held[] = [];
    for (let i = 0; i < 40; i += 1) idle.push(await hold(run.baseUrl, partialHeaders));
    // The server has taken in all 40.
    await eventually(async () => expect(await run.openConnections()).toBe(40));
    expect(idle.every((held) => !held.closed)).toBe(true);
    const evictedBefore = await refused(run, 'evicted');
    expect(await healthz(run)).toBe(200);
    expect(await signedStock(run)).toContain('WIDGET-9');
    expect((await fetch(`${run.baseUrl}/readyz`)).status).toBeLessThan(600);
    // Each connection the server closed to make a place has closed on this side too.
    await eventually(async () =>
      expect(closedCount(idle)).toBe((await refused(run, 'evicted')) - evictedBefore),
    );
    // The places came from the oldest idle connections, in order; the newest still wait.
    const closed = idle.map((held) => held.closed);
    const firstOpen = closed.indexOf(false);
    expect(firstOpen).toBeGreaterThan(0);
    expect(closed.slice(firstOpen).every((c) => !c)).toBe(true);
  });
});

describe('one address', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({ mode: 'http', limits: { maxConnectionsPerPeer: 20 } });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('holds at most its own number of connections and its own share of body bytes', async () => {
    const before = (await refused(run, 'evicted')) + (await refused(run, 'peer_connections'));
    const idle: Held[] = [];
    for (let i = 0; i < 30; i += 1) idle.push(await hold(run.baseUrl, partialHeaders));
    // The server has screened all 30: each past the 20th evicted an older one or was refused,
    // and each of those has closed on this side.
    await eventually(async () => {
      const turnedAway =
        (await refused(run, 'evicted')) + (await refused(run, 'peer_connections')) - before;
      expect(turnedAway).toBe(10);
      expect(closedCount(idle)).toBe(10);
    });
    expect(idle.filter((held) => !held.closed).length).toBeLessThanOrEqual(20);
    // Its own newest request is still served: the oldest idle one made room.
    expect(await healthz(run)).toBe(200);
  });

  it('cannot hold more than its share of body bytes (503 past it)', async () => {
    // The default share (2 MiB) holds one body at the cap; ten slow ones from one address.
    const drips: Held[] = [];
    const written = 1024 + MAX_BODY_BYTES - 2048;
    for (let i = 0; i < 10; i += 1) {
      const held = await hold(run.baseUrl, dripHead(MAX_BODY_BYTES - 10));
      held.socket.write('y'.repeat(MAX_BODY_BYTES - 2048));
      drips.push(held);
    }
    const turnedAway = () => drips.filter((held) => held.status?.includes('503'));
    // Every drip's bytes were read and are held, or it was answered 503.
    await eventually(async () =>
      expect((await bufferedBytes(run)) / written + turnedAway().length).toBe(10),
    );
    expect(turnedAway().length).toBeGreaterThanOrEqual(5);
    expect(await signedStock(run)).toContain('WIDGET-9');
  });
});

describe('Slack-sized bodies', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({ mode: 'http' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('refuses a declared body over the cap with 413 before reading it', async () => {
    const held = await hold(run.baseUrl, dripHead(MAX_BODY_BYTES + 1));
    await eventually(() => expect(held.status).toContain('413'));
    expect(await bufferedBytes(run)).toBe(0);
  });
});

describe('HOST', () => {
  for (const mode of ['http', 'socket'] as const) {
    it(`listens on the address it names only (${mode})`, async () => {
      // 127.0.0.2 is a loopback address of its own: 127.0.0.1 on the same port is not it.
      const run = await startApp({ mode, env: { HOST: '127.0.0.2' } });
      try {
        const port = new URL(run.baseUrl).port;
        expect((await fetch(`http://127.0.0.2:${port}/healthz`)).status).toBe(200);
        await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
      } finally {
        await run.stop();
      }
    });
  }
});
