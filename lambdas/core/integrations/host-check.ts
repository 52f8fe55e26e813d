/**
 * Hosts the product connects to for a company (FTP/NSOFT exports, the SQL import): the name is resolved once,
 * every address it resolves to is checked, and the connection goes to a checked address (no second resolution
 * between check and connect: DNS rebinding). Loopback, unspecified, link-local, private, carrier-grade NAT,
 * unique-local, multicast, broadcast and reserved addresses are refused, also inside IPv4-mapped, IPv4-compatible,
 * NAT64 and 6to4 IPv6 forms, unless the deployment allows them (INTEGRATIONS_ALLOW_PRIVATE_HOSTS=1: local mode and
 * the tests, whose stand-ins listen on 127.0.0.1; never set by the CDK stacks). docs/security.md.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { TargetError } from './ports';

/** The message of a refused host, on the Host field of the connection test and on a failed export or import. */
export const HOST_NOT_ALLOWED = 'This host is not allowed';

/** A refused host: permanent (retrying does not help), shown as it is. */
export class HostNotAllowedError extends TargetError {
  constructor() {
    super(HOST_NOT_ALLOWED, false);
    this.name = 'HostNotAllowedError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name → every address (node:dns lookup with all: true); tests inject their own. */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

export const dnsResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

export interface HostPolicy {
  /** Deployment setting: internal addresses allowed (local mode, tests). */
  allowPrivate: boolean;
  resolve?: HostResolver;
}

/** IPv4 ranges refused: [first address, prefix length, name]. */
const V4_REFUSED: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved and broadcast'],
];

function v4ToInt(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

const V4_RANGES = V4_REFUSED.map(([first, bits, name]) => ({ first: v4ToInt(first)!, size: 2 ** (32 - bits), name }));

function refusedV4(n: number): string | undefined {
  return V4_RANGES.find((r) => n >= r.first && n < r.first + r.size)?.name;
}

/** An IPv6 address as 8 groups of 16 bits (an IPv4 tail and a zone id allowed), or undefined. */
function v6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0]!.toLowerCase();
  const tail: number[] = [];
  const v4 = text.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const n = v4ToInt(v4[2]!);
    if (n === undefined) return undefined;
    tail.push(Math.floor(n / 65536), n % 65536);
    text = v4[1]!.endsWith('::') ? v4[1]! : v4[1]!.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const given = head.length + rest.length + tail.length;
  if ([...head, ...rest].some(Number.isNaN)) return undefined;
  if (halves.length === 1 ? given !== 8 : given > 7) return undefined;
  return [...head, ...new Array<number>(8 - given).fill(0), ...rest, ...tail];
}

/** The IPv4 address carried in two groups, checked as itself: the refused range's name with the form's label. */
function refusedEmbedded(label: string, hi: number, lo: number): string | undefined {
  const range = refusedV4(hi * 65536 + lo);
  return range && `${label} ${range}`;
}

function refusedV6(g: number[]): string | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped), ::ffff:0:a.b.c.d (IPv4-translated), 64:ff9b::/96 (NAT64), 2002::/16 (6to4):
  // the embedded IPv4 address's own ranges. ::a.b.c.d (IPv4-compatible) is deprecated and refused as a whole.
  if (zeros(0, 5) && g[5] === 0xffff) return refusedEmbedded('IPv4-mapped', g[6]!, g[7]!);
  if (zeros(0, 6)) return 'IPv4-compatible (deprecated)';
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return refusedEmbedded('IPv4-translated', g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return refusedEmbedded('NAT64', g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'local-use NAT64';
  if (g[0] === 0x2002) return refusedEmbedded('6to4', g[1]!, g[2]!);
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'unique-local (private)';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xffc0) === 0xfec0) return 'site-local (deprecated, private)';
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x0100 && zeros(1, 4)) return 'discard';
  return undefined;
}

/**
 * Why an address may not be connected to (the range's name), or undefined for a public address. Anything that is
 * not an IPv4 or IPv6 address is refused (fails closed).
 */
export function refusedRange(address: string): string | undefined {
  const kind = isIP(address.split('%')[0]!);
  if (kind === 4) return refusedV4(v4ToInt(address)!);
  if (kind === 6) {
    const groups = v6Groups(address);
    return groups ? refusedV6(groups) : 'not an address';
  }
  return 'not an address';
}

/**
 * Resolves a host once and checks every address: throws HostNotAllowedError when any of them is refused (a name
 * with one public and one private address is refused too), before any connection. Returns the addresses to
 * connect to, IPv4 first (as a Lambda outside a VPC has no IPv6 route); resolution errors (ENOTFOUND) pass through.
 */
export async function resolveAllowedHost(host: string, policy: HostPolicy): Promise<ResolvedAddress[]> {
  const addresses = await (policy.resolve ?? dnsResolver)(host);
  if (addresses.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  if (!policy.allowPrivate && addresses.some((a) => refusedRange(a.address) !== undefined)) throw new HostNotAllowedError();
  return [...addresses.filter((a) => a.family === 4), ...addresses.filter((a) => a.family !== 4)];
}

/** Errors after which the next resolved address is tried (this address cannot be reached at all). */
const NEXT_ADDRESS_CODES = new Set(['ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/**
 * Runs `attempt` with each checked address in turn until one connects: the next one only after an error that
 * says this address is unreachable (refused, no route); any other error (a login refused, a timeout) is the answer.
 */
export async function withEachAddress<T>(addresses: ResolvedAddress[], attempt: (address: ResolvedAddress) => Promise<T>): Promise<T> {
  let last: unknown;
  for (const address of addresses) {
    try {
      return await attempt(address);
    } catch (error) {
      last = error;
      if (!NEXT_ADDRESS_CODES.has(String((error as NodeJS.ErrnoException)?.code))) throw error;
    }
  }
  throw last;
}

/** The TLS server name for a host as typed: the name itself, none for an IP address (RFC 6066 forbids IPs in SNI). */
export const tlsServerName = (host: string): string | undefined => (isIP(host) ? undefined : host);
