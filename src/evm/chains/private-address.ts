import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local and unique-local ranges: addresses no public node lives at. */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE.addSubnet('0.0.0.0', 8, 'ipv4');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

/**
 * Whether a URL names a loopback or private address (or `localhost`), read from its text: names
 * are not resolved, so a DNS name that points at one is not caught.
 */
export function isPrivateUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const address = host.startsWith('[') ? host.slice(1, -1) : host;
  const family = isIP(address);
  if (family === 0) return false;
  // IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) match the IPv4 ranges.
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
