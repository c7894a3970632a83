import ipaddr from 'ipaddr.js';

/*
 * Whether a list of trusted proxies could let a client on the internet choose its own address.
 * A proxy is believed about the address before it in X-Forwarded-For; a range that holds a
 * public address therefore lets whoever sits at that address name any client address it likes,
 * past per-address throttling and into the audit. Ranges are judged together (their union), so
 * that `0.0.0.0/1,128.0.0.0/1` is seen as the `0.0.0.0/0` it is.
 */

/**
 * Addresses no client on the internet has: loopback, private (RFC 1918), link-local, unique-local
 * (fc00::/7) and shared address space (100.64.0.0/10, RFC 6598), which carriers and overlay
 * networks use inside their own networks and never route on the internet.
 */
export const NON_PUBLIC_RANGES: readonly string[] = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '169.254.0.0/16',
  '100.64.0.0/10',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
];

/** Addresses first to last, in IPv6 space; IPv4 as IPv4-mapped (::ffff:a.b.c.d), as the proxy check matches them. */
interface Span {
  first: bigint;
  last: bigint;
}

const toBigInt = (bytes: readonly number[]) => bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);

function toAddress(n: bigint): string {
  const bytes = Array.from({ length: 16 }, (_, i) => Number((n >> BigInt((15 - i) * 8)) & 0xffn));
  const address = ipaddr.fromByteArray(bytes) as ipaddr.IPv6;
  return address.isIPv4MappedAddress() ? address.toIPv4Address().toString() : address.toString();
}

/** An address or CIDR range (already checked to be one) as the span of addresses it holds. */
function spanOf(entry: string): Span {
  const [address, bits] = entry.includes('/')
    ? ipaddr.parseCIDR(entry)
    : ([ipaddr.parse(entry), entry.includes(':') ? 128 : 32] as const);
  const wide = address.kind() === 'ipv4' ? (address as ipaddr.IPv4).toIPv4MappedAddress() : address;
  const prefix = address.kind() === 'ipv4' ? bits + 96 : bits;
  const hostBits = BigInt(128 - prefix);
  const first = (toBigInt(wide.toByteArray()) >> hostBits) << hostBits;
  return { first, last: first + (1n << hostBits) - 1n };
}

/** The spans in order, overlapping and adjacent ones joined. */
function union(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const out: Span[] = [];
  for (const s of sorted) {
    const previous = out.at(-1);
    if (previous && s.first <= previous.last + 1n) {
      if (s.last > previous.last) previous.last = s.last;
    } else out.push({ ...s });
  }
  return out;
}

/** The lowest address of `spans` that `allowed` does not hold; both are unions (ordered, disjoint). */
function firstOutside(spans: readonly Span[], allowed: readonly Span[]): bigint | undefined {
  for (const span of spans) {
    let next = span.first;
    for (const a of allowed) {
      if (a.last < next) continue;
      if (a.first > next) break;
      next = a.last + 1n;
    }
    if (next <= span.last) return next;
  }
  return undefined;
}

const NON_PUBLIC = union(NON_PUBLIC_RANGES.map(spanOf));

/**
 * Pure: a public address that the proxy entries (addresses or CIDR ranges, already checked to be
 * such) hold between them, the lowest, or undefined when every address they hold is non-public.
 */
export function firstPublicAddress(entries: readonly string[]): string | undefined {
  const found = firstOutside(union(entries.map(spanOf)), NON_PUBLIC);
  return found === undefined ? undefined : toAddress(found);
}
