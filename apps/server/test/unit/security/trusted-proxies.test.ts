import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { firstPublicAddress, NON_PUBLIC_RANGES } from '../../../src/config/trusted-proxies.ts';

/*
 * TRUST_PROXY may name only proxies no client on the internet can be: whatever ranges it lists,
 * together, must hold no public address. Otherwise a client at such an address could write its
 * own X-Forwarded-For and be believed.
 */

describe('the public addresses a set of proxy ranges covers', () => {
  it('refuses every range, or set of ranges, that reaches public address space', () => {
    for (const entries of [
      ['0.0.0.0/0'],
      ['::/0'],
      ['0.0.0.0/1', '128.0.0.0/1'],
      ['::ffff:0.0.0.0/96'],
      ['8.8.8.0/24'],
      ['2000::/3'],
      ['8.8.8.8'],
      ['10.0.0.0/7'],
      ['127.0.0.1', '203.0.113.7'],
      ['::ffff:8.8.8.8'],
      ['fc00::/6'],
    ]) {
      expect(firstPublicAddress(entries), entries.join(',')).toBeDefined();
    }
  });

  it('names a public address the set covers', () => {
    expect(firstPublicAddress(['0.0.0.0/1', '128.0.0.0/1'])).toBe('0.0.0.0');
    expect(firstPublicAddress(['8.8.8.0/24'])).toBe('8.8.8.0');
    expect(firstPublicAddress(['10.0.0.0/8', '11.0.0.0/8'])).toBe('11.0.0.0');
    expect(firstPublicAddress(['::ffff:0.0.0.0/96'])).toBe('0.0.0.0');
    expect(firstPublicAddress(['2000::/3'])).toBe('2000::');
    // The gap between the loopback range and the private ones is found, not only the ends.
    expect(firstPublicAddress(['96.0.0.0/3'])).toBe('96.0.0.0');
  });

  it('allows loopback, private, link-local, unique-local and shared (CGNAT) ranges', () => {
    for (const entries of [
      ['127.0.0.1'],
      ['10.0.0.0/8'],
      ['172.16.0.0/12'],
      ['192.168.0.0/16'],
      ['::1'],
      ['fc00::/7'],
      ['fe80::/10'],
      ['100.64.0.0/10'],
      ['169.254.0.0/16'],
      ['::ffff:10.0.0.0/104'],
      ['::ffff:127.0.0.1'],
      ['10.1.2.3/8'],
      ['10.0.0.0/9', '10.128.0.0/9', '192.168.1.4', 'fd00::/8'],
      NON_PUBLIC_RANGES,
    ]) {
      expect(firstPublicAddress(entries), entries.join(',')).toBeUndefined();
    }
  });
});

/** Generated ranges: IPv4, IPv6 and IPv4-mapped IPv6, as TRUST_PROXY writes them. */
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join('.'));
const ipv6 = fc
  .array(fc.nat(0xffff), { minLength: 8, maxLength: 8 })
  .map((parts) => new ipaddr.IPv6(parts).toString());
const range = fc.oneof(
  fc.tuple(ipv4, fc.integer({ min: 0, max: 32 })).map(([a, p]) => `${a}/${p}`),
  fc.tuple(ipv6, fc.integer({ min: 0, max: 128 })).map(([a, p]) => `${a}/${p}`),
  fc.tuple(ipv4, fc.integer({ min: 96, max: 128 })).map(([a, p]) => `::ffff:${a}/${p}`),
  ipv4,
  ipv6,
);

/** A range inside one of the non-public ones: a longer prefix, any bits after it. */
const nonPublic = fc
  .tuple(
    fc.constantFrom(...NON_PUBLIC_RANGES),
    fc.nat(128),
    fc.array(fc.nat(255), { minLength: 16, maxLength: 16 }),
  )
  .map(([block, extra, noise]) => {
    const [base, bits] = ipaddr.parseCIDR(block);
    const width = base.kind() === 'ipv4' ? 32 : 128;
    const prefix = bits + (extra % (width - bits + 1));
    const bytes = base.toByteArray();
    const mixed = bytes.map((b, i) => {
      const keep = Math.max(0, Math.min(8, bits - i * 8));
      const mask = (0xff << (8 - keep)) & 0xff;
      return (b & mask) | ((noise[i] ?? 0) & ~mask & 0xff);
    });
    return `${ipaddr.fromByteArray(mixed).toString()}/${prefix}`;
  });

/** A public IPv4 address: none of the non-public ranges holds it. */
const publicIpv4 = ipv4.filter((a) => {
  const address = ipaddr.parse(a);
  return !NON_PUBLIC_RANGES.some((r) => {
    const [base, bits] = ipaddr.parseCIDR(r);
    return base.kind() === 'ipv4' && address.match(base, bits);
  });
});

describe('properties over generated ranges', () => {
  it('allows anything inside the non-public ranges, in any number', () => {
    fc.assert(
      fc.property(fc.array(nonPublic, { minLength: 1, maxLength: 6 }), (entries) => {
        expect(firstPublicAddress(entries)).toBeUndefined();
      }),
    );
  });

  it('refuses any set holding a public address, alone or as the mapped IPv6 address', () => {
    fc.assert(
      fc.property(
        fc.array(nonPublic, { maxLength: 4 }),
        publicIpv4,
        fc.boolean(),
        (safe, address, mapped) => {
          const entry = mapped ? `::ffff:${address}` : address;
          expect(firstPublicAddress([...safe, entry])).toBe(address);
        },
      ),
    );
  });

  it('judges the union: a range split into its halves is judged as the whole', () => {
    fc.assert(
      fc.property(range, (entry) => {
        const [base, bits] = ipaddr.parseCIDR(
          entry.includes('/') ? entry : `${entry}/${entry.includes(':') ? 128 : 32}`,
        );
        const width = base.kind() === 'ipv4' ? 32 : 128;
        fc.pre(bits < width);
        const bytes = base.toByteArray();
        const byte = Math.floor(bits / 8);
        const bit = 0x80 >> (bits % 8);
        const low = bytes.map((b, i) => (i === byte ? b & ~bit & 0xff : b));
        const high = bytes.map((b, i) => (i === byte ? b | bit : b));
        const halves = [low, high].map((b) => `${ipaddr.fromByteArray(b).toString()}/${bits + 1}`);
        // The whole range's network address may carry host bits: the halves are of its network.
        const network = `${ipaddr.fromByteArray(bytes).toString()}/${bits}`;
        expect(firstPublicAddress(halves) === undefined).toBe(firstPublicAddress([network]) === undefined);
      }),
    );
  });

  it('does not depend on order or repetition, and more ranges never make a set acceptable', () => {
    fc.assert(
      fc.property(fc.array(range, { minLength: 1, maxLength: 5 }), range, (entries, more) => {
        const verdict = firstPublicAddress(entries);
        expect(firstPublicAddress([...entries].reverse())).toBe(verdict);
        expect(firstPublicAddress([...entries, ...entries])).toBe(verdict);
        if (verdict !== undefined) expect(firstPublicAddress([...entries, more])).toBeDefined();
      }),
    );
  });

  it('names an address that one of the ranges holds and no non-public range does', () => {
    fc.assert(
      fc.property(fc.array(range, { minLength: 1, maxLength: 5 }), (entries) => {
        const found = firstPublicAddress(entries);
        fc.pre(found !== undefined);
        const address = ipaddr.parse(found as string);
        const holds = (r: string) => {
          const [base, bits] = r.includes('/')
            ? ipaddr.parseCIDR(r)
            : [ipaddr.parse(r), r.includes(':') ? 128 : 32];
          return inRange(address, base, bits);
        };
        expect(entries.some(holds)).toBe(true);
        expect(NON_PUBLIC_RANGES.some(holds)).toBe(false);
      }),
    );
  });
});

/** Whether `address` lies in base/bits, IPv4 and IPv4-mapped IPv6 being one space. */
function inRange(address: ipaddr.IPv4 | ipaddr.IPv6, base: ipaddr.IPv4 | ipaddr.IPv6, bits: number): boolean {
  const wide = (a: ipaddr.IPv4 | ipaddr.IPv6) =>
    a.kind() === 'ipv4' ? (a as ipaddr.IPv4).toIPv4MappedAddress() : (a as ipaddr.IPv6);
  return wide(address).match(wide(base), base.kind() === 'ipv4' ? bits + 96 : bits);
}
