/**
 * The intake's body accounting (intake.ts) on fake sockets: who may take bytes, and which
 * body goes when a signed request finds no room. The real-socket attack is in
 * test/security/intakeCrowd.test.ts.
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Intake, type IntakeLimits } from '../../src/slack/transport/intake.js';

const LIMITS: IntakeLimits = {
  maxConnections: 100,
  maxConnectionsPerPeer: 100,
  maxBufferedBytes: 1000,
  maxBufferedBytesPerPeer: 600,
  reservedBytes: 200,
  smallBodyBytes: 100,
  peerPrefixBits: { ipv4: 24, ipv6: 64 },
};

class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
}

const SIGNED_SMALL = { signed: true, small: true };
const SIGNED_LARGE = { signed: true, small: false };
const UNSIGNED = { signed: false, small: false };

function setUp(limits: Partial<IntakeLimits> = {}) {
  const refusals: string[] = [];
  const intake = new Intake({ ...LIMITS, ...limits }, (reason) => refusals.push(reason));
  /** A connection from `address` whose body begins now. */
  const reading = (address: string) => {
    const socket = new FakeSocket(address) as FakeSocket & Socket;
    intake.admit(socket);
    intake.phase(socket, 'reading');
    return socket;
  };
  return { intake, refusals, reading };
}

describe('the intake’s body bytes', () => {
  it('refuses an unsigned body past the general part and drops nobody for it', () => {
    const { intake, reading } = setUp();
    const a = reading('192.0.2.1');
    const b = reading('198.51.100.1');
    expect(intake.take(a, 500, UNSIGNED)).toBe(true);
    expect(intake.take(b, 300, UNSIGNED)).toBe(true);
    // 800 of 1000 held: the rest is the reserve.
    expect(intake.take(reading('203.0.113.1'), 1, UNSIGNED)).toBe(false);
    expect(a.destroyed || b.destroyed).toBe(false);
  });

  it('lets a small signed body use the reserve, a large one not, without dropping while it fits', () => {
    const { intake, reading } = setUp();
    expect(intake.take(reading('192.0.2.1'), 500, UNSIGNED)).toBe(true);
    expect(intake.take(reading('198.51.100.1'), 300, UNSIGNED)).toBe(true);
    expect(intake.take(reading('203.0.113.1'), 150, SIGNED_SMALL)).toBe(true);
    expect(intake.counts().bytes).toBe(950);
  });

  it('drops the body that began first for a signed newcomer, not the oldest connection', () => {
    const { intake, refusals, reading } = setUp();
    const first = new FakeSocket('192.0.2.1') as FakeSocket & Socket;
    intake.admit(first);
    const second = reading('198.51.100.1');
    expect(intake.take(second, 400, SIGNED_SMALL)).toBe(true);
    // The older connection's body begins after the second's.
    intake.phase(first, 'reading');
    expect(intake.take(first, 400, SIGNED_SMALL)).toBe(true);
    const newcomer = reading('203.0.113.1');
    expect(intake.take(newcomer, 300, SIGNED_SMALL)).toBe(true);
    expect([second.destroyed, first.destroyed]).toEqual([true, false]);
    expect(refusals).toEqual(['dropped']);
    expect(intake.counts()).toEqual({ connections: 2, bytes: 700 });
  });

  it('drops as many of the oldest bodies as it takes for a large signed body', () => {
    const { intake, reading } = setUp();
    const olds = ['192.0.2.1', '198.51.100.1', '203.0.113.1', '203.0.114.1'].map((address) => {
      const socket = reading(address);
      intake.take(socket, 200, SIGNED_SMALL);
      return socket;
    });
    const large = reading('203.0.115.1');
    // 800 held; a large body may use 800 (not the reserve): three must go for 500.
    expect(intake.take(large, 500, SIGNED_LARGE)).toBe(true);
    expect(olds.map((socket) => socket.destroyed)).toEqual([true, true, true, false]);
  });

  it('makes room in its own peer’s share from its own peer’s bodies, however old another’s are', () => {
    const { intake, reading } = setUp({ maxBufferedBytes: 10_000, reservedBytes: 0 });
    const other = reading('198.51.100.1');
    intake.take(other, 500, SIGNED_SMALL);
    // Two addresses of one /24 are one peer: 600 between them.
    const mine = reading('192.0.2.1');
    intake.take(mine, 500, SIGNED_SMALL);
    const neighbour = reading('192.0.2.200');
    expect(intake.take(neighbour, 200, UNSIGNED)).toBe(false);
    expect(intake.take(neighbour, 200, SIGNED_SMALL)).toBe(true);
    expect([other.destroyed, mine.destroyed]).toEqual([false, true]);
  });

  it('counts the addresses of one IPv6 /64 as one peer', () => {
    const { intake, reading } = setUp({ maxBufferedBytes: 10_000, reservedBytes: 0 });
    for (let i = 1; i <= 6; i += 1) {
      expect(intake.take(reading(`2001:db8:1:2::${i}`), 100, UNSIGNED)).toBe(true);
    }
    expect(intake.take(reading('2001:db8:1:2:ffff::1'), 100, UNSIGNED)).toBe(false);
    expect(intake.take(reading('2001:db8:1:3::1'), 100, UNSIGNED)).toBe(true);
  });

  it('refuses a signed body that would not fit even with every other body dropped', () => {
    const { intake, reading } = setUp();
    expect(intake.take(reading('192.0.2.1'), 700, SIGNED_LARGE)).toBe(false);
  });

  it('makes a place past the connection cap from the body that began first, not the oldest connection', () => {
    const { intake, reading } = setUp({ maxConnections: 2 });
    const keptAlive = new FakeSocket('192.0.2.1') as FakeSocket & Socket;
    intake.admit(keptAlive);
    const slow = reading('198.51.100.1');
    // The older connection begins its next body now.
    intake.phase(keptAlive, 'reading');
    intake.admit(new FakeSocket('203.0.113.1') as FakeSocket & Socket);
    expect([keptAlive.destroyed, slow.destroyed]).toEqual([false, true]);
  });
});
