/**
 * Request intake for the HTTP receiver: who may hold a connection and body bytes, so that no
 * crowd of slow or idle clients can starve Slack's own requests or the health routes.
 *
 * - Peers are networks, not addresses (peerPrefix.ts): an IPv4 /24 or an IPv6 /64 counts as
 *   one peer, since one sender easily holds a whole /64 and many addresses of a /24.
 * - Connections. At most `maxConnections` at once and `maxConnectionsPerPeer` from one
 *   peer. A newcomer past either cap does not wait and is not refused while an older
 *   connection holds a place without serving anything: the oldest idle one (headers not yet
 *   complete, or a keep-alive connection between requests) is closed to make room, else the
 *   oldest still reading its body. So `/healthz`, `/readyz` and a signed request always get a
 *   connection while the places are held by clients sending nothing useful; only a crowd of
 *   requests being served (their handlers running) fills the cap.
 * - Body bytes. Bodies being read hold bytes against a total (`maxBufferedBytes`) and a share
 *   per peer (`maxBufferedBytesPerPeer`). Part of the total (`reservedBytes`) is kept for
 *   small requests that carry Slack's signature headers with a current timestamp: slow large
 *   bodies can fill the rest but never that part.
 * - The oldest body goes first. Headers prove nothing (the signature covers the body, so it
 *   can only be checked once the body is in), so a crowd can always claim to be small and
 *   signed and fill the reserve too. What tells Slack apart is speed: it sends its body at
 *   once, in milliseconds. So a request with signature headers that finds no room (in its
 *   peer's share, or in the total) does not get 503 while a body is still arriving: the body
 *   that has been arriving the longest (of its peer, or of all) is dropped, its connection
 *   closed, until the newcomer fits. A stalled body then holds its bytes only until the next
 *   request needs them; to push out a real request, a sender would have to push out every
 *   older body first, faster than that request's body arrives: a flood of bandwidth, not a
 *   slow sender. Requests without signature headers never drop anyone (they get 503).
 *   A shorter deadline for small bodies was weighed and not taken: it bounds how long one
 *   body holds bytes, not how many are held at once (a sender who reconnects at the deadline
 *   keeps the reserve full, as the 10 s deadline showed), and a deadline short enough to help
 *   would cut off real clients on slow links.
 *
 * Behind a reverse proxy every connection comes from the proxy's address: the proxy should
 * time out slow clients and buffer bodies (docs/operations.md), and then these caps are
 * rarely reached.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { type PrefixBits, peerPrefix } from './peerPrefix.js';

export interface IntakeLimits {
  /** Open connections at once. */
  maxConnections: number;
  /** Open connections from one peer (an IPv4 /24 or IPv6 /64 by default, `peerPrefixBits`). */
  maxConnectionsPerPeer: number;
  /** Body bytes all requests being read may hold together. */
  maxBufferedBytes: number;
  /** Body bytes the requests of one peer may hold together; at least one body at the cap. */
  maxBufferedBytesPerPeer: number;
  /** The part of `maxBufferedBytes` only small signed requests may use. */
  reservedBytes: number;
  /** A declared body at most this size, with signature headers, may use the reserve. */
  smallBodyBytes: number;
  /** The leading bits of an address that name its peer: 24 (IPv4) and 64 (IPv6). */
  peerPrefixBits: PrefixBits;
}

/** What a request's headers claim, for the bytes its body may take. */
export interface BodyClaim {
  /** Slack's signature headers, well formed, with a current timestamp: may drop older bodies. */
  signed: boolean;
  /** Declared at most `smallBodyBytes` (and signed): may use the reserve. */
  small: boolean;
}

/** Where a connection is: between requests (or before its first), reading a body, served. */
type ConnectionPhase = 'idle' | 'reading' | 'serving';

interface Connection {
  socket: Socket;
  peer: string;
  phase: ConnectionPhase;
  /** Body bytes its current request holds. */
  bytes: number;
  /** When its current body began to arrive, in order of all bodies: the oldest goes first. */
  since: number;
}

/** `dropped`: a body still arriving, closed to make room for a newer signed one. */
type IntakeRefusal = 'too_many_connections' | 'peer_connections' | 'evicted' | 'dropped';

export class Intake {
  /** In arrival order: the first idle one found is the oldest. */
  private readonly connections = new Map<Socket, Connection>();
  private readonly perPeer = new Map<string, { connections: number; bytes: number }>();
  private bytes = 0;
  /** Counts bodies as they begin, for `Connection.since`. */
  private bodies = 0;

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
    const peer = peerPrefix(socket.remoteAddress ?? '', this.limits.peerPrefixBits);
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
    const connection: Connection = { socket, peer, phase: 'idle', bytes: 0, since: 0 };
    this.connections.set(socket, connection);
    this.peer(peer).connections += 1;
    socket.once('close', () => this.forget(connection));
  }

  /** The guard says where a connection's request is. */
  phase(socket: Socket, phase: ConnectionPhase): void {
    const connection = this.connections.get(socket);
    if (!connection) return;
    if (phase === 'reading') {
      this.bodies += 1;
      connection.since = this.bodies;
    }
    connection.phase = phase;
  }

  /**
   * Takes `bytes` of body for the request on `socket`; false when its peer's share or the
   * total (past the reserve, unless small and signed) has no room. A signed request first
   * drops the oldest bodies still arriving (of its peer, then of all) until it fits.
   */
  take(socket: Socket, bytes: number, claim: BodyClaim): boolean {
    const connection = this.connections.get(socket);
    if (!connection) return false;
    const own = this.peer(connection.peer);
    while (own.bytes + bytes > this.limits.maxBufferedBytesPerPeer) {
      if (!claim.signed || !this.dropOldestBody(connection, connection.peer)) return false;
    }
    const limit =
      claim.signed && claim.small
        ? this.limits.maxBufferedBytes
        : this.limits.maxBufferedBytes - this.limits.reservedBytes;
    while (this.bytes + bytes > limit) {
      if (!claim.signed || !this.dropOldestBody(connection, undefined)) return false;
    }
    this.bytes += bytes;
    own.bytes += bytes;
    connection.bytes += bytes;
    return true;
  }

  /** Closes the connection whose body began first (of `peer` when given), bar `newcomer`. */
  private dropOldestBody(newcomer: Connection, peer: string | undefined): boolean {
    const oldest = this.oldestBody({ peer, holdingBytes: true, except: newcomer });
    if (oldest === undefined) return false;
    this.forget(oldest);
    this.onRefused?.('dropped');
    oldest.socket.destroy();
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

  /**
   * Closes the oldest idle connection (of `peer` when given), else the one whose body began
   * first (a keep-alive connection is old, its current body need not be).
   */
  private evict(peer: string | undefined): boolean {
    let victim: Connection | undefined;
    for (const connection of this.connections.values()) {
      if (connection.phase === 'idle' && (peer === undefined || connection.peer === peer)) {
        victim = connection;
        break;
      }
    }
    victim ??= this.oldestBody({ peer, holdingBytes: false });
    if (victim === undefined) return false;
    this.forget(victim);
    this.onRefused?.('evicted');
    victim.socket.destroy();
    return true;
  }

  /** The connection reading the body that began first (of `peer`), bar `except`. */
  private oldestBody(options: {
    peer: string | undefined;
    holdingBytes: boolean;
    except?: Connection;
  }): Connection | undefined {
    const { peer, holdingBytes, except } = options;
    let oldest: Connection | undefined;
    for (const connection of this.connections.values()) {
      if (connection === except || connection.phase !== 'reading') continue;
      if (holdingBytes && connection.bytes === 0) continue;
      if (peer !== undefined && connection.peer !== peer) continue;
      if (oldest === undefined || connection.since < oldest.since) oldest = connection;
    }
    return oldest;
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
