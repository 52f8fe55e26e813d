/** The address check of the hosts the product connects to for a company (FTP/NSOFT exports, the SQL import). */
import { describe, expect, it } from 'vitest';
import {
  HOST_NOT_ALLOWED,
  HostNotAllowedError,
  refusedRange,
  resolveAllowedHost,
  tlsServerName,
  withEachAddress,
  type HostResolver,
  type ResolvedAddress,
} from '../../../lambdas/core/integrations/host-check';
import { TargetError } from '../../../lambdas/core/integrations/ports';

const refused: [string, string][] = [
  // IPv4
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['169.254.169.254', 'link-local'],
  ['169.254.0.1', 'link-local'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.255', 'carrier-grade NAT'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['198.18.0.1', 'benchmarking'],
  ['192.0.0.170', 'IETF'],
  // IPv6
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['FF05::1:3', 'multicast'],
  // IPv4 inside IPv6
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback'],
  ['::FFFF:169.254.169.254', 'IPv4-mapped link-local'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local'],
  ['0:0:0:0:0:ffff:10.1.2.3', 'IPv4-mapped private'],
  ['::ffff:192.168.0.10', 'IPv4-mapped private'],
  ['::ffff:100.64.1.1', 'IPv4-mapped carrier-grade NAT'],
  ['::ffff:0.0.0.0', 'IPv4-mapped unspecified'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated loopback'],
  ['::127.0.0.1', 'IPv4-compatible'],
  ['::8.8.8.8', 'IPv4-compatible'],
  ['64:ff9b::127.0.0.1', 'NAT64 loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 link-local'],
  ['64:ff9b:1::1', 'local-use NAT64'],
  ['2002:7f00:1::', '6to4 loopback'],
  ['2002:c0a8:101::1', '6to4 private'],
  // Not an address at all: refused (fails closed)
  ['localhost', 'not an address'],
  ['', 'not an address'],
  ['1.2.3', 'not an address'],
];

const allowed = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '100.63.255.255',
  '100.128.0.1',
  '172.15.255.255',
  '172.32.0.1',
  '169.253.255.255',
  '192.169.0.1',
  '11.0.0.1',
  '126.255.255.255',
  '128.0.0.1',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:82a::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
  'fe7f::1',
  'fbff::1',
];

describe('refusedRange', () => {
  it.each(refused)('refuses %s (%s)', (address, name) => {
    expect(refusedRange(address)).toContain(name);
  });
  it.each(allowed)('allows the public address %s', (address) => {
    expect(refusedRange(address)).toBeUndefined();
  });
});

/** A resolver that answers from a table and counts its calls. */
function resolverOf(table: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

describe('resolveAllowedHost', () => {
  const dns = resolverOf({
    'ftp.example.com': ['2001:db8:1::5', '93.184.216.34'],
    'intranet.example.com': ['10.1.2.3'],
    'metadata.example.com': ['169.254.169.254'],
    'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
    'v6-only.example.com': ['fd00::10'],
    '127.0.0.1': ['127.0.0.1'],
    '2130706433': ['127.0.0.1'],
    empty: [],
  });

  it('refuses a name that resolves to a private, link-local or loopback address, with the message for the Host field', async () => {
    for (const host of ['intranet.example.com', 'metadata.example.com', 'mapped.example.com', 'v6-only.example.com', '127.0.0.1', '2130706433']) {
      const error = await resolveAllowedHost(host, { allowPrivate: false, resolve: dns }).catch((e: unknown) => e);
      expect(error, host).toBeInstanceOf(HostNotAllowedError);
      expect(error).toBeInstanceOf(TargetError);
      expect((error as TargetError).message).toBe(HOST_NOT_ALLOWED);
      expect((error as TargetError).transient).toBe(false);
    }
    expect(HOST_NOT_ALLOWED).toBe('This host is not allowed');
  });

  it('refuses a name with one public and one private address (any refused address refuses the name)', async () => {
    await expect(resolveAllowedHost('rebind.example.com', { allowPrivate: false, resolve: dns })).rejects.toBeInstanceOf(HostNotAllowedError);
  });

  it('answers the checked addresses of a public name, IPv4 first, resolving once', async () => {
    const before = dns.calls.length;
    expect(await resolveAllowedHost('ftp.example.com', { allowPrivate: false, resolve: dns })).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2001:db8:1::5', family: 6 },
    ]);
    expect(dns.calls.slice(before)).toEqual(['ftp.example.com']);
  });

  it('allows internal addresses where the deployment allows them (local mode, tests)', async () => {
    expect(await resolveAllowedHost('127.0.0.1', { allowPrivate: true, resolve: dns })).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await resolveAllowedHost('metadata.example.com', { allowPrivate: true, resolve: dns })).toEqual([{ address: '169.254.169.254', family: 4 }]);
  });

  it('passes a name that does not resolve on as ENOTFOUND (Host not found), also when the answer is empty', async () => {
    await expect(resolveAllowedHost('nowhere.example.com', { allowPrivate: false, resolve: dns })).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolveAllowedHost('empty', { allowPrivate: false, resolve: dns })).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('uses the system resolver by default: an IP literal and localhost are checked as what they resolve to', async () => {
    await expect(resolveAllowedHost('127.0.0.1', { allowPrivate: false })).rejects.toBeInstanceOf(HostNotAllowedError);
    await expect(resolveAllowedHost('localhost', { allowPrivate: false })).rejects.toBeInstanceOf(HostNotAllowedError);
    await expect(resolveAllowedHost('169.254.169.254', { allowPrivate: false })).rejects.toBeInstanceOf(HostNotAllowedError);
    await expect(resolveAllowedHost('0x7f.1', { allowPrivate: false })).rejects.toBeInstanceOf(HostNotAllowedError);
  });
});

describe('withEachAddress', () => {
  const addresses: ResolvedAddress[] = [
    { address: '93.184.216.34', family: 4 },
    { address: '2001:db8:1::5', family: 6 },
  ];
  const fail = (code: string) => Object.assign(new Error(code), { code });

  it('tries the next address only when this one cannot be reached', async () => {
    const tried: string[] = [];
    const answer = await withEachAddress(addresses, async (a) => {
      tried.push(a.address);
      if (a.family === 4) throw fail('ENETUNREACH');
      return a.address;
    });
    expect(answer).toBe('2001:db8:1::5');
    expect(tried).toEqual(['93.184.216.34', '2001:db8:1::5']);
  });

  it('answers any other failure (a refused login, a timeout) at once, and the last failure when none connects', async () => {
    const tried: string[] = [];
    await expect(
      withEachAddress(addresses, async (a) => {
        tried.push(a.address);
        throw fail('ETIMEDOUT');
      }),
    ).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    expect(tried).toEqual(['93.184.216.34']);
    await expect(withEachAddress(addresses, async () => Promise.reject(fail('ECONNREFUSED')))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('tlsServerName', () => {
  it('is the name as typed, none for an IP address', () => {
    expect(tlsServerName('ftp.example.com')).toBe('ftp.example.com');
    expect(tlsServerName('93.184.216.34')).toBeUndefined();
  });
});
