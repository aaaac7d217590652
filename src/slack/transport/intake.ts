/**
 * Request intake for the HTTP receiver: who may hold a connection and body bytes, so that no
 * crowd of slow or idle clients can starve Slack's own requests or the health routes.
 *
 * - Connections. At most `maxConnections` at once and `maxConnectionsPerPeer` from one
 *   address. A newcomer past either cap does not wait and is not refused while an older
 *   connection holds a place without serving anything: the oldest idle one (headers not yet
 *   complete, or a keep-alive connection between requests) is closed to make room, else the
 *   oldest still reading its body. So `/healthz`, `/readyz` and a signed request always get a
 *   connection while the places are held by clients sending nothing useful; only a crowd of
 *   requests being served (their handlers running) fills the cap.
 * - Body bytes. Bodies being read hold bytes against a total (`maxBufferedBytes`) and a share
 *   per address (`maxBufferedBytesPerPeer`). Part of the total (`reservedBytes`) is kept for
 *   small requests that carry Slack's signature headers with a current timestamp: slow large
 *   bodies can fill the rest but never that part.
 *
 * Behind a reverse proxy every connection comes from the proxy's address: the proxy should
 * time out slow clients and buffer bodies (docs/operations.md), and then these caps are
 * rarely reached.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface IntakeLimits {
  /** Open connections at once. */
  maxConnections: number;
  /** Open connections from one address. */
  maxConnectionsPerPeer: number;
  /** Body bytes all requests being read may hold together. */
  maxBufferedBytes: number;
  /** Body bytes the requests of one address may hold together. */
  maxBufferedBytesPerPeer: number;
  /** The part of `maxBufferedBytes` only small signed requests may use. */
  reservedBytes: number;
  /** A declared body at most this size, with signature headers, may use the reserve. */
  smallBodyBytes: number;
}

/** Where a connection is: between requests (or before its first), reading a body, served. */
type ConnectionPhase = 'idle' | 'reading' | 'serving';

interface Connection {
  socket: Socket;
  peer: string;
  phase: ConnectionPhase;
  /** Body bytes its current request holds. */
  bytes: number;
}

type IntakeRefusal = 'too_many_connections' | 'peer_connections' | 'evicted';

export class Intake {
  /** In arrival order: the first idle one found is the oldest. */
  private readonly connections = new Map<Socket, Connection>();
  private readonly perPeer = new Map<string, { connections: number; bytes: number }>();
  private bytes = 0;

  constructor(
    readonly limits: IntakeLimits,
    private readonly onRefused?: (reason: IntakeRefusal) => void,
  ) {}

  /** Screens every connection of `server` (listens to its 'connection' event). */
  attach(server: Server): void {
    server.on('connection', (socket: Socket) => this.admit(socket));
  }

  /** Open connections now, and body bytes held now (metrics and tests). */
  counts(): { connections: number; bytes: number } {
    return { connections: this.connections.size, bytes: this.bytes };
  }

  admit(socket: Socket): void {
    const peer = socket.remoteAddress ?? '';
    const own = this.perPeer.get(peer)?.connections ?? 0;
    if (own >= this.limits.maxConnectionsPerPeer && !this.evict(peer)) {
      this.onRefused?.('peer_connections');
      socket.destroy();
      return;
    }
    if (this.connections.size >= this.limits.maxConnections && !this.evict(undefined)) {
      this.onRefused?.('too_many_connections');
      socket.destroy();
      return;
    }
    const connection: Connection = { socket, peer, phase: 'idle', bytes: 0 };
    this.connections.set(socket, connection);
    this.peer(peer).connections += 1;
    socket.once('close', () => this.forget(connection));
  }

  /** The guard says where a connection's request is. */
  phase(socket: Socket, phase: ConnectionPhase): void {
    const connection = this.connections.get(socket);
    if (connection) connection.phase = phase;
  }

  /**
   * Takes `bytes` of body for the request on `socket`; false when its address or the total
   * (past the reserve, unless `small`) has no room.
   */
  take(socket: Socket, bytes: number, small: boolean): boolean {
    const connection = this.connections.get(socket);
    if (!connection) return false;
    const own = this.peer(connection.peer);
    if (own.bytes + bytes > this.limits.maxBufferedBytesPerPeer) return false;
    const limit = small
      ? this.limits.maxBufferedBytes
      : this.limits.maxBufferedBytes - this.limits.reservedBytes;
    if (this.bytes + bytes > limit) return false;
    this.bytes += bytes;
    own.bytes += bytes;
    connection.bytes += bytes;
    return true;
  }

  /** The request on `socket` holds its body no longer (read, refused or dropped). */
  release(socket: Socket): void {
    const connection = this.connections.get(socket);
    if (connection) this.releaseBytes(connection);
  }

  private releaseBytes(connection: Connection): void {
    this.bytes -= connection.bytes;
    const own = this.perPeer.get(connection.peer);
    if (own) own.bytes -= connection.bytes;
    connection.bytes = 0;
  }

  /** Closes the oldest idle connection (of `peer` when given), else the oldest reading one. */
  private evict(peer: string | undefined): boolean {
    for (const phase of ['idle', 'reading'] as const) {
      for (const connection of this.connections.values()) {
        if (connection.phase !== phase || (peer !== undefined && connection.peer !== peer)) {
          continue;
        }
        this.forget(connection);
        this.onRefused?.('evicted');
        connection.socket.destroy();
        return true;
      }
    }
    return false;
  }

  private forget(connection: Connection): void {
    if (this.connections.get(connection.socket) !== connection) return;
    this.releaseBytes(connection);
    this.connections.delete(connection.socket);
    const own = this.perPeer.get(connection.peer);
    if (!own) return;
    own.connections -= 1;
    if (own.connections <= 0) this.perPeer.delete(connection.peer);
  }

  private peer(address: string): { connections: number; bytes: number } {
    let own = this.perPeer.get(address);
    if (!own) {
      own = { connections: 0, bytes: 0 };
      this.perPeer.set(address, own);
    }
    return own;
  }
}
