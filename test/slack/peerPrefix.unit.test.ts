/**
 * The peer the intake counts a connection against (peerPrefix.ts): a network, so that the
 * addresses of one /24 or one /64 share one share, however many of them a sender uses.
 */
import { describe, expect, it } from 'vitest';
import { peerPrefix } from '../../src/slack/transport/peerPrefix.js';

const bits = { ipv4: 24, ipv6: 64 };

describe('peerPrefix', () => {
  it('names an IPv4 address by its /24', () => {
    expect(peerPrefix('203.0.113.77', bits)).toBe('203.0.113.0/24');
    expect(peerPrefix('203.0.113.1', bits)).toBe(peerPrefix('203.0.113.254', bits));
    expect(peerPrefix('203.0.114.1', bits)).not.toBe(peerPrefix('203.0.113.1', bits));
  });

  it('names an IPv6 address by its /64, however it is written', () => {
    const one = peerPrefix('2001:db8:1:2:aaaa:bbbb:cccc:dddd', bits);
    expect(one).toBe('2001:db8:1:2:0:0:0:0/64');
    expect(peerPrefix('2001:db8:1:2::1', bits)).toBe(one);
    expect(peerPrefix('2001:DB8:1:2:ffff::', bits)).toBe(one);
    expect(peerPrefix('fe80::1%eth0', bits)).toBe('fe80:0:0:0:0:0:0:0/64');
    expect(peerPrefix('2001:db8:1:3::1', bits)).not.toBe(one);
    expect(peerPrefix('::1', bits)).toBe('0:0:0:0:0:0:0:0/64');
  });

  it('counts an IPv4 address mapped into IPv6 as the IPv4 address', () => {
    expect(peerPrefix('::ffff:203.0.113.9', bits)).toBe('203.0.113.0/24');
    expect(peerPrefix('64:ff9b::203.0.113.9', { ipv4: 24, ipv6: 128 })).toBe(
      '64:ff9b:0:0:0:0:cb00:7109/128',
    );
  });

  it('keeps as many bits as asked', () => {
    expect(peerPrefix('203.0.113.77', { ipv4: 32, ipv6: 64 })).toBe('203.0.113.77/32');
    expect(peerPrefix('203.0.113.77', { ipv4: 20, ipv6: 64 })).toBe('203.0.112.0/20');
    expect(peerPrefix('2001:db8:1:2::1', { ipv4: 24, ipv6: 56 })).toBe('2001:db8:1:0:0:0:0:0/56');
  });

  it('leaves an address of no known family as it is', () => {
    expect(peerPrefix('', bits)).toBe('');
    expect(peerPrefix('not an address', bits)).toBe('not an address');
  });
});
