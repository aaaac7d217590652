/**
 * A crowd of addresses stalling bodies that claim to be small and signed (issue 43): from
 * distinct loopback addresses (127.0.0.x, bound as the client socket's local address), each
 * request declares 16,000 bytes with a current timestamp and a well-formed but wrong
 * signature, sends 15,999 and stalls. Headers prove nothing, so such bodies may use the
 * reserve; what keeps Slack answering is that a signed newcomer drops the oldest body still
 * arriving instead of being refused (intake.ts), and that a /24 is one peer.
 *
 * No clock matters here: the body deadline and Node's request timeout are set far beyond the
 * test, so the attack is held for as long as the test runs and only the intake's accounting
 * can make room. Every wait is for an outcome (bytes held, sockets closed), never a duration.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../helpers/app.js';
import { textOf } from '../helpers/blocks.js';
import { eventually } from '../helpers/eventually.js';
import { metricValue } from '../helpers/metrics.js';

const DECLARED = 16_000;
const SENT = 15_999;
const ADDRESSES = Array.from({ length: 66 }, (_, i) => `127.0.0.${10 + i}`);
const PER_ADDRESS = 4;
/** Held for the whole test: no deadline ends the attack for it. */
const FOREVER = { bodyDeadlineMs: 3_600_000, requestTimeoutMs: 0 };

const opened: Socket[] = [];
afterEach(() => {
  for (const socket of opened.splice(0)) socket.destroy();
});

interface Stall {
  address: string;
  socket: Socket;
  closed: boolean;
}

/** One stalled body from `address`; resolves once its bytes are written. */
function stall(run: RunningApp, address: string): Promise<Stall> {
  const url = new URL(run.baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ port: Number(url.port), host: '127.0.0.1', localAddress: address });
    const held: Stall = { address, socket, closed: false };
    socket.on('error', () => {});
    socket.on('close', () => {
      held.closed = true;
    });
    opened.push(socket);
    socket.once('connect', () => {
      const head = [
        'POST /slack/events HTTP/1.1',
        'Host: app',
        'Content-Type: application/x-www-form-urlencoded',
        `Content-Length: ${DECLARED}`,
        `X-Slack-Request-Timestamp: ${Math.floor(Date.now() / 1000)}`,
        `X-Slack-Signature: v0=${randomBytes(32).toString('hex')}`,
      ].join('\r\n');
      socket.write(`${head}\r\n\r\n${'x'.repeat(SENT)}`, () => resolve(held));
    });
  });
}

const bufferedBytes = (run: RunningApp) => metricValue(run, 'slack_request_body_bytes_buffered');
const dropped = (run: RunningApp) =>
  metricValue(run, 'slack_requests_refused_total', { reason: 'dropped' });
const open = (stalls: Stall[]) => stalls.filter((one) => !one.closed);

async function signedStock(run: RunningApp): Promise<{ status: number; text: string }> {
  const { reply, ack } = await run.command('/stock', 'WIDGET-9');
  return { status: reply.status, text: textOf(ack ?? {}) };
}

describe('66 addresses stalling small signed-looking bodies, each its own peer', () => {
  let run: RunningApp;
  // Exactly what the crowd holds: every byte of the intake, the reserve included.
  const full = ADDRESSES.length * PER_ADDRESS * SENT;
  beforeAll(async () => {
    run = await startApp({
      mode: 'http',
      limits: {
        ...FOREVER,
        maxBufferedBytes: full,
        // Each address a peer of its own (/32): the crowd, not one prefix's share, is tested.
        peerPrefixBits: { ipv4: 32, ipv6: 128 },
      },
    });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('signed /stock commands get 200 while the crowd keeps every byte of the intake', async () => {
    const stalls = await Promise.all(
      ADDRESSES.flatMap((address) =>
        Array.from({ length: PER_ADDRESS }, () => stall(run, address)),
      ),
    );
    // The crowd holds the whole intake, reserve and all.
    await eventually(async () => expect(await bufferedBytes(run)).toBe(full));
    expect(open(stalls)).toHaveLength(stalls.length);

    const replacements = new Set<Stall>();
    for (let round = 0; round < 5; round += 1) {
      const droppedBefore = await dropped(run);
      const answer = await signedStock(run);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('WIDGET-9');
      // Room was made by dropping the oldest stalled body, one per answer: the rest still hold.
      expect(await dropped(run)).toBe(droppedBefore + 1);
      await eventually(() => expect(open(stalls)).toHaveLength(stalls.length - 1));
      // The attack is kept up: the dropped body comes back from its address, and the crowd
      // again holds every byte before the next command.
      const gone = stalls.findIndex((one) => one.closed);
      const lost = stalls[gone];
      // The oldest body went: one of the first wave's, never a newer replacement.
      expect(lost && !replacements.has(lost)).toBe(true);
      const again = await stall(run, lost?.address ?? '');
      replacements.add(again);
      stalls.splice(gone, 1, again);
      await eventually(async () => expect(await bufferedBytes(run)).toBe(full));
    }
  });
});

describe('66 addresses of one /24', () => {
  let run: RunningApp;
  beforeAll(async () => {
    run = await startApp({ mode: 'http', limits: FOREVER });
  });
  afterAll(async () => {
    await run?.stop();
  });

  it('hold one peer’s connections together, and a signed /stock from the same /24 is answered', async () => {
    const stalls: Stall[] = [];
    for (const address of ADDRESSES) {
      for (let i = 0; i < PER_ADDRESS; i += 1) stalls.push(await stall(run, address));
    }
    // 127.0.0.10 to 127.0.0.75 are one peer: 64 connections at most, the newest kept.
    await eventually(async () => {
      expect(open(stalls)).toHaveLength(64);
      expect(await bufferedBytes(run)).toBe(64 * SENT);
    });
    const answer = await signedStock(run);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('WIDGET-9');
    // Its place was the oldest stalled one's; the other 63 still hold.
    await eventually(() => expect(open(stalls)).toHaveLength(63));
  });
});
