import { type LookupAddress, lookup } from 'node:dns';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';

/*
 * The webhooks' address guard (docs/security.md, "Webhooks"): a subscription's URL may lead only
 * to public addresses, unless WEBHOOK_ALLOW_PRIVATE says otherwise, or an administrator could make
 * the server call its own network (the database, a cloud's metadata service). It is checked when
 * a subscription is saved and again at every send, on the addresses the request really connects
 * to, so a name that resolves elsewhere later (DNS rebinding) reaches nothing internal.
 */

/**
 * Pure: whether an address is a public unicast one. Private, loopback, link-local, unique-local,
 * carrier-grade NAT, unspecified, broadcast, multicast, documentation and other reserved ranges
 * are not, and neither are IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4, Teredo)
 * unless, for a mapped one, the IPv4 address is public itself. Anything unparsable is not.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // A zone (fe80::1%eth0) is link-local by definition.
  if (bare.includes('%') || !ipaddr.isValid(bare)) return false;
  let parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  // ipaddr.js names every special range; only plain unicast is left for the internet at large.
  return parsed.range() === 'unicast';
}

/** Pure: the host of a URL as an address, when it is one (`[::1]` without its brackets). */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare))
    ? bare
    : undefined;
}

const lookupAll = promisify(lookup);

/** Refused: the URL leads to an address the guard does not allow. */
export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS';
  constructor(readonly address: string) {
    super(`Refused: ${address} is not a public address (WEBHOOK_ALLOW_PRIVATE is off)`);
  }
}

/**
 * Whether a URL may be subscribed: its host is a public address, or a name whose every address
 * is public. A name that does not resolve is allowed: the receiver may not exist yet, and every
 * send checks again. Throws PrivateAddressError otherwise.
 */
export async function checkUrlAddresses(url: string): Promise<void> {
  const { hostname } = new URL(url);
  const literal = literalAddress(hostname);
  if (literal) {
    if (!isPublicAddress(literal)) throw new PrivateAddressError(literal);
    return;
  }
  let found: LookupAddress[];
  try {
    found = await lookupAll(hostname, { all: true, verbatim: true });
  } catch {
    return;
  }
  const refused = found.find((a) => !isPublicAddress(a.address));
  if (refused) throw new PrivateAddressError(refused.address);
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http(s) that answers only public addresses: the socket connects to an
 * address this function checked, never to one a second resolution might give. A literal address
 * in the URL never reaches a lookup: `sendWebhook` checks it itself.
 */
export function publicOnlyLookup(
  hostname: string,
  options: { family?: number | string; all?: boolean },
  callback: LookupCallback,
): void {
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
  lookup(hostname, { all: true, verbatim: true, family }, (err, addresses) => {
    if (err) {
      callback(err, '');
      return;
    }
    const allowed = addresses.filter((a) => isPublicAddress(a.address));
    const first = allowed[0];
    if (!first) {
      callback(new PrivateAddressError(addresses[0]?.address ?? hostname), '');
      return;
    }
    if (options.all) callback(null, allowed);
    else callback(null, first.address, first.family);
  });
}
