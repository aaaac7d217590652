/**
 * The fake's Socket Mode server, speaking Slack's envelope protocol over `ws`:
 * - the client opens `ws://…/socket?ticket=…` with a ticket from apps.connections.open;
 * - the server greets it with `{type: "hello", …}` (the client counts as connected only then);
 * - envelopes `{envelope_id, type, accepts_response_payload, payload}` go out and the client
 *   answers each with `{envelope_id, payload?}`.
 * Pings are answered by `ws` itself (the SDK pings every few seconds and drops a silent server).
 */

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import { capture } from '../capture.js';
import type { SocketEnvelope } from './payloads.js';
import type { Waiters } from './waiters.js';

const SOCKET_PATH = '/socket';

const AckMessage = z.object({ envelope_id: z.string().min(1), payload: z.unknown().optional() });

/** An ack received from the app: what it would have answered over HTTP. */
export interface ReceivedAck {
  envelope_id: string;
  payload?: unknown;
}

export class SocketHub {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  /** Sockets that were sent `hello`, newest last. */
  private readonly ready: WebSocket[] = [];
  private readonly acks = new Map<string, ReceivedAck>();
  private connectionCount = 0;

  constructor(
    private readonly waiters: Waiters,
    private readonly appId: string,
  ) {}

  /** Registers a one-time ticket; apps.connections.open hands out one per connection. */
  issueTicket(ticket: string): void {
    this.tickets.add(ticket);
  }

  /** Connections ever accepted, reconnects included. */
  get connections(): number {
    return this.connectionCount;
  }

  isConnected(): boolean {
    return this.ready.length > 0;
  }

  ack(envelopeId: string): ReceivedAck | undefined {
    return this.acks.get(envelopeId);
  }

  /** For the HTTP server's `upgrade` event: accepts only `/socket` with a valid ticket. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const ticket = url.searchParams.get('ticket');
    if (url.pathname !== SOCKET_PATH || ticket === null || !this.tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  }

  private accept(ws: WebSocket): void {
    this.connectionCount += 1;
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.receive(String(data));
    });
    ws.on('close', () => {
      const index = this.ready.indexOf(ws);
      if (index >= 0) this.ready.splice(index, 1);
      this.waiters.notify();
    });
    ws.send(JSON.stringify(this.hello()));
    this.ready.push(ws);
    this.waiters.notify();
  }

  private hello() {
    return {
      type: 'hello',
      num_connections: this.ready.length + 1,
      debug_info: {
        host: 'fake-slack-127.0.0.1',
        build_number: 1,
        approximate_connection_time: 3600,
      },
      connection_info: { app_id: this.appId },
    };
  }

  private receive(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    const parsed = AckMessage.safeParse(json);
    if (!parsed.success) return;
    const ack: ReceivedAck = { envelope_id: parsed.data.envelope_id };
    if (parsed.data.payload !== undefined) {
      ack.payload = parsed.data.payload;
      capture('message', 'socket ack', JSON.stringify(parsed.data.payload));
    }
    this.acks.set(ack.envelope_id, ack);
    this.waiters.notify();
  }

  /** Sends an envelope to the newest connected client (Slack picks any one of them). */
  send(envelope: SocketEnvelope): void {
    const ws = this.ready.at(-1);
    if (ws === undefined) throw new Error('fake Slack: no Socket Mode client is connected');
    ws.send(JSON.stringify(envelope));
  }

  /** Sends any text as one frame to the newest client, as a broken or hostile Slack could. */
  sendRaw(text: string): void {
    const ws = this.ready.at(-1);
    if (ws === undefined) throw new Error('fake Slack: no Socket Mode client is connected');
    ws.send(text);
  }

  /** Sends Slack's `disconnect` message to every client; Bolt's client then reconnects. */
  sendDisconnect(reason: 'warning' | 'refresh_requested' | 'link_disabled'): void {
    const message = JSON.stringify({
      type: 'disconnect',
      reason,
      debug_info: { host: 'fake-slack' },
    });
    for (const ws of this.ready) ws.send(message);
  }

  /**
   * Completes a close handshake with every client, then stops. Why not just terminate: right
   * after `app.stop()` the client's close frame may still be in flight, and a dropped socket
   * then makes @slack/socket-mode 3 arm a second close-handshake timer over its first, which
   * is never cleared and keeps the process alive for 30 s. Stragglers are terminated.
   */
  async close(): Promise<void> {
    const closing = [...this.wss.clients].map((ws) => closeGracefully(ws, CLOSE_GRACE_MS));
    await Promise.all(closing);
    this.ready.length = 0;
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

const CLOSE_GRACE_MS = 1000;

function closeGracefully(ws: WebSocket, graceMs: number): Promise<void> {
  if (ws.readyState === ws.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => ws.terminate(), graceMs);
    ws.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    if (ws.readyState === ws.OPEN) ws.close(1000, 'fake Slack closing');
  });
}
