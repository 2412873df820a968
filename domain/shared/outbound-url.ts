import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard for every URL the service calls on a user's behalf (webhooks, callbacks): https
 * and a public address, checked when the URL is saved and again when the connection is made (the
 * address actually connected to is the one checked, so DNS rebinding gets nowhere).
 * ALLOW_PRIVATE_URLS=true (local development and tests) allows http and private addresses.
 */

/**
 * Address ranges never reached for a user: loopback, private, link-local, shared, reserved,
 * multicast. Two lists: a BlockList also matches IPv4 addresses against IPv6 rules in their mapped
 * form, so one list with `::ffff:0:0/96` would refuse every IPv4 address.
 */
const BLOCKED_V4 = new BlockList();
const BLOCKED_V6 = new BlockList();
const IPV4_BLOCKS: [string, number][] = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];
const IPV6_BLOCKS: [string, number][] = [
  ['::', 96], // unspecified (::), loopback (::1) and the deprecated IPv4-compatible form
  ['::ffff:0:0', 96], // IPv4-mapped: never a webhook's address, and the v4 inside could be anything
  ['64:ff9b::', 96], // NAT64, which reaches IPv4 addresses
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo, which tunnels to IPv4
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4, which embeds an IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];
for (const [network, prefix] of IPV4_BLOCKS) BLOCKED_V4.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of IPV6_BLOCKS) BLOCKED_V6.addSubnet(network, prefix, 'ipv6');

/** Host names that name the local machine or a private network, whatever they resolve to. */
const PRIVATE_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa|intranet|lan)$/;

/** True for an IP address outside every blocked range; false for a blocked one or a non-address. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  return version === 4 ? !BLOCKED_V4.check(address, 'ipv4') : !BLOCKED_V6.check(address, 'ipv6');
}

/** The URL's host without IPv6 brackets or a trailing dot, lower case. */
export const hostOf = (url: URL): string =>
  url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

/**
 * Why a URL may not be called, or null. The WHATWG parser has already turned the decimal, octal,
 * hexadecimal and short forms of an IPv4 address (2130706433, 0177.0.0.1, 0x7f000001, 127.1) into
 * dotted quads, and IPv6 into its canonical form, so each is checked as the address it is.
 */
export function outboundUrlProblem(value: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate ? 'must be an http or https URL' : 'must be an https URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (allowPrivate) return null;
  const host = hostOf(url);
  if (isIP(host)) return isPublicAddress(host) ? null : 'must point to a public address';
  if (PRIVATE_NAMES.test(host) || !host.includes('.')) return 'must point to a public address';
  return null;
}

/** Resolves a host name to every address it has (tests pass their own). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** A URL or the address it resolves to is refused by the guard; the message says why. */
export class OutboundUrlRefused extends Error {
  override readonly name = 'OutboundUrlRefused';
}

/**
 * The addresses to connect to for `host`: every one must be public (unless private ones are
 * allowed), else the whole host is refused, since a resolver may hand any of them to the socket.
 */
export async function resolveOutboundHost(host: string, allowPrivate: boolean, resolver: Resolver): Promise<string[]> {
  if (isIP(host)) {
    if (!allowPrivate && !isPublicAddress(host)) throw new OutboundUrlRefused(`${host} is not a public address`);
    return [host];
  }
  const addresses = await resolver(host);
  if (addresses.length === 0) throw new OutboundUrlRefused(`${host} has no address`);
  const refused = allowPrivate ? undefined : addresses.find((address) => !isPublicAddress(address));
  if (refused) throw new OutboundUrlRefused(`${host} resolves to ${refused}, which is not a public address`);
  return addresses;
}

export interface SaveCheckOptions {
  allowPrivate: boolean;
  resolver?: Resolver;
  /** Longest wait for DNS when the URL is saved. */
  timeoutMs?: number;
}

/**
 * The check when a URL is saved: its form, then what its host resolves to now. A host that does
 * not resolve (yet) is accepted; the check at connect time refuses it if it later resolves to a
 * private address.
 */
export async function checkOutboundUrl(value: string, options: SaveCheckOptions): Promise<string | null> {
  const problem = outboundUrlProblem(value, options.allowPrivate);
  if (problem || options.allowPrivate) return problem;
  const host = hostOf(new URL(value));
  if (isIP(host)) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), options.timeoutMs ?? 2000);
  });
  try {
    const addresses = await Promise.race([(options.resolver ?? systemResolver)(host).catch(() => []), timeout]);
    return addresses.some((address) => !isPublicAddress(address)) ? 'must point to a public address' : null;
  } finally {
    clearTimeout(timer);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that answers only with addresses already checked, so the socket
 * connects to exactly what the guard let through (no second, unchecked DNS answer).
 */
export function pinnedLookup(addresses: readonly string[]) {
  return (_hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    const entries = addresses.map((address) => ({ address, family: isIP(address) }));
    const wanted = Number(options.family) || 0;
    const usable = wanted ? entries.filter((entry) => entry.family === wanted) : entries;
    const list = usable.length ? usable : entries;
    if (options.all) callback(null, list);
    else callback(null, list[0].address, list[0].family);
  };
}
