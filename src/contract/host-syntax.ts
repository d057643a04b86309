import { isIPv4, isIPv6 } from 'node:net';

/** A Host value reduced to what comparisons need. */
export interface ParsedHost {
  /** Lower case, without a trailing dot; an IPv6 address keeps its brackets. */
  hostname: string;
  port?: number;
}

/** An ALLOWED_HOSTS entry: `name`, `name:port`, `*.domain` or `*.domain:port`. */
export interface HostPattern extends ParsedHost {
  /** `*.domain`: any subdomain of `domain`, not `domain` itself. */
  wildcard: boolean;
}

// Name or [IPv6], then an optional port without leading zeros. Anything else (userinfo, path,
// query, fragment, a second colon) fails here or in the label check below.
const HOST_AND_PORT = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::([1-9]\d{0,4}))?$/;
// Underscores are not DNS, but container and service names (`my_app:3000`) use them.
const DNS_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;
const NUMERIC = /^\d+$/;

function isHostname(name: string): boolean {
  if (name.startsWith('[')) return isIPv6(name.slice(1, -1));
  if (isIPv4(name)) return true;
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  if (bare.length === 0 || bare.length > 253) return false;
  const labels = bare.split('.');
  // `127.1` or `2130706433` are addresses a URL parser rewrites: accept only the dotted quad.
  if (NUMERIC.test(labels[labels.length - 1])) return false;
  return labels.every((label) => DNS_LABEL.test(label));
}

/**
 * Reads a Host (or X-Forwarded-Host) value: a DNS name, IPv4 or [IPv6] address and an optional
 * port, nothing else. Undefined when the value is anything more.
 */
export function parseHost(value: string): ParsedHost | undefined {
  const match = HOST_AND_PORT.exec(value);
  if (!match) return undefined;
  const [, name, port] = match;
  const hostname = name.toLowerCase();
  if (!isHostname(hostname) || (port !== undefined && Number(port) > 65_535)) return undefined;
  return {
    hostname: hostname.endsWith('.') ? hostname.slice(0, -1) : hostname,
    ...(port !== undefined && { port: Number(port) }),
  };
}

/** How many host values a parser made by `hostParser` remembers before it starts over. */
const REMEMBERED_HOSTS = 256;

/**
 * parseHost, remembering its answers: a server sees the same few Host values over and over, and
 * reading one costs more than looking it up. Bounded, since a client may send any value.
 */
export function hostParser(): (value: string) => ParsedHost | undefined {
  const known = new Map<string, ParsedHost | null>();
  return (value) => {
    let parsed = known.get(value);
    if (parsed === undefined) {
      if (known.size >= REMEMBERED_HOSTS) known.clear();
      parsed = parseHost(value) ?? null;
      known.set(value, parsed);
    }
    return parsed ?? undefined;
  };
}

/** Reads one ALLOWED_HOSTS entry; undefined when it is not a host, `*.` followed by one. */
export function parseHostPattern(value: string): HostPattern | undefined {
  const wildcard = value.startsWith('*.');
  const host = parseHost(wildcard ? value.slice(2) : value);
  // A wildcard stands for subdomains: it makes no sense in front of an address.
  if (!host || (wildcard && (host.hostname.startsWith('[') || isIPv4(host.hostname)))) {
    return undefined;
  }
  return { ...host, wildcard };
}

/** An entry without a port allows any port; with one, only that port written out. */
export function hostAllowed(host: ParsedHost, patterns: readonly HostPattern[]): boolean {
  return patterns.some(
    (pattern) =>
      (pattern.port === undefined || pattern.port === host.port) &&
      (pattern.wildcard
        ? host.hostname.endsWith(`.${pattern.hostname}`)
        : host.hostname === pattern.hostname),
  );
}
