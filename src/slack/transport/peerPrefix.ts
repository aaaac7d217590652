/**
 * The network a connection comes from, as the intake counts it (intake.ts): an IPv4 /24 and an
 * IPv6 /64 by default. One person or one rented host easily holds a whole /64 (it is the
 * smallest block a provider hands out) and often many addresses of a /24, so a share per exact
 * address is a share per whatever number of addresses the sender cares to use; a share per
 * prefix is not. An IPv4 address mapped into IPv6 (`::ffff:192.0.2.1`, how a dual-stack server
 * sees IPv4 peers) counts as the IPv4 address it is.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** How many leading bits of an address name its network, per family. */
export interface PrefixBits {
  ipv4: number;
  ipv6: number;
}

/** `192.0.2.0/24`, `2001:db8:1:2:0:0:0:0/64`; an address of no known family as it is. */
export function peerPrefix(address: string, bits: PrefixBits): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  const plain = mapped?.[1] ?? address;
  if (isIPv4(plain)) return `${masked(ipv4Groups(plain), 8, bits.ipv4).join('.')}/${bits.ipv4}`;
  const zoneless = plain.split('%')[0] ?? '';
  if (!isIPv6(zoneless)) return address;
  const groups = masked(ipv6Groups(zoneless), 16, bits.ipv6);
  return `${groups.map((group) => group.toString(16)).join(':')}/${bits.ipv6}`;
}

function ipv4Groups(address: string): number[] {
  return address.split('.').map(Number);
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted tail read). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parts = (text: string) =>
    text === ''
      ? []
      : text.split(':').flatMap((part) => {
          if (!part.includes('.')) return [Number.parseInt(part, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = ipv4Groups(part);
          return [a * 256 + b, c * 256 + d];
        });
  const front = parts(head);
  const back = tail === undefined ? [] : parts(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** Keeps the first `bits` bits of groups `width` bits wide, zeroing the rest. */
function masked(groups: number[], width: number, bits: number): number[] {
  return groups.map((group, i) => {
    const kept = Math.min(Math.max(bits - i * width, 0), width);
    const mask = kept === 0 ? 0 : ((2 ** width - 1) >> (width - kept)) << (width - kept);
    return group & mask;
  });
}
