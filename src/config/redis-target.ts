/**
 * Where the shared Redis is, read from REDIS_URL, REDIS_CLUSTER, REDIS_SENTINELS and
 * REDIS_SENTINEL_NAME (docs/operating.md, "Past one Redis"): one server, a Redis Cluster reached
 * through seed nodes, or a primary that Sentinel names.
 */
export type RedisTarget =
  | { mode: 'single'; url: string }
  | { mode: 'cluster'; nodes: RedisAddress[]; auth: RedisAuth }
  | { mode: 'sentinel'; sentinels: RedisAddress[]; name: string; auth: RedisAuth; db: number };

/** A node or a sentinel: host and port. */
export interface RedisAddress {
  host: string;
  port: number;
}

/** Credentials and TLS of the data nodes (the URL's user, password and `rediss`). */
export interface RedisAuth {
  username?: string;
  password?: string;
  tls: boolean;
}

const SCHEMES = ['redis:', 'rediss:', 'redis+cluster:', 'rediss+cluster:'];
const DEFAULT_PORT = 6379;

/**
 * `host:port` (port optional, 6379; an IPv6 address in brackets) as an address, or undefined when
 * it is not one.
 */
export function parseAddress(text: string, port = DEFAULT_PORT): RedisAddress | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(text.trim());
  if (!match) return undefined;
  const number = match[2] === undefined ? port : Number(match[2]);
  if (!Number.isInteger(number) || number < 1 || number > 65535) return undefined;
  return { host: match[1].replace(/^\[|\]$/g, ''), port: number };
}

/** A comma-separated list of addresses, or undefined when empty or any entry is not one. */
export function parseAddresses(text: string, port = DEFAULT_PORT): RedisAddress[] | undefined {
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const addresses = items.map((item) => parseAddress(item, port));
  return addresses.length > 0 && addresses.every(Boolean)
    ? (addresses as RedisAddress[])
    : undefined;
}

interface UrlParts {
  scheme: string;
  auth: RedisAuth;
  hosts: RedisAddress[];
  db: number;
}

/**
 * REDIS_URL's parts: `redis[s]://[user:password@]host[:port][/db]`, or for a cluster
 * `redis[s]+cluster://[user:password@]host:port,host:port` (the seeds; a cluster has only
 * database 0). Undefined when it is neither; never echoes the text (it may hold a password).
 */
export function parseRedisUrl(url: string): UrlParts | undefined {
  const match = /^([a-z+]+:)\/\/(?:([^@/]*)@)?([^/?#]+)(?:\/(\d*))?(?:\?[^#]*)?$/i.exec(url.trim());
  if (!match || !SCHEMES.includes(match[1].toLowerCase())) return undefined;
  const scheme = match[1].toLowerCase();
  const [user, ...rest] = (match[2] ?? '').split(':');
  const password = rest.join(':');
  const hosts = parseAddresses(match[3]);
  if (!hosts) return undefined;
  const db = match[4] ? Number(match[4]) : 0;
  const cluster = scheme.includes('+cluster');
  if ((!cluster && hosts.length > 1) || (cluster && db !== 0)) return undefined;
  return {
    scheme,
    auth: {
      username: user ? decodeURIComponent(user) : undefined,
      password: password ? decodeURIComponent(password) : undefined,
      tls: scheme.startsWith('rediss'),
    },
    hosts,
    db,
  };
}

/** The variables a target is read from (CoreEnv's). */
export interface RedisVars {
  REDIS_URL?: string;
  REDIS_CLUSTER: boolean;
  REDIS_SENTINELS?: string;
  REDIS_SENTINEL_NAME?: string;
}

/**
 * The target the variables name, undefined when none (no shared store); the problems, when they
 * contradict each other, for the boot to refuse.
 */
export function redisTargetOf(vars: RedisVars): { target?: RedisTarget; problems: string[] } {
  const parts = vars.REDIS_URL ? parseRedisUrl(vars.REDIS_URL) : undefined;
  const problems: string[] = [];
  if (vars.REDIS_SENTINELS !== undefined) {
    const sentinels = parseAddresses(vars.REDIS_SENTINELS, 26379);
    if (!vars.REDIS_SENTINEL_NAME) problems.push('REDIS_SENTINELS needs REDIS_SENTINEL_NAME');
    if (vars.REDIS_CLUSTER || parts?.scheme.includes('+cluster')) {
      problems.push(
        'REDIS_SENTINELS cannot be used with a cluster (REDIS_CLUSTER, redis+cluster://)',
      );
    }
    if (problems.length > 0 || !sentinels) return { problems };
    const auth = parts?.auth ?? { tls: false };
    return {
      target: {
        mode: 'sentinel',
        sentinels,
        name: vars.REDIS_SENTINEL_NAME!,
        auth,
        db: parts?.db ?? 0,
      },
      problems,
    };
  }
  if (vars.REDIS_SENTINEL_NAME !== undefined)
    problems.push('REDIS_SENTINEL_NAME needs REDIS_SENTINELS');
  if (!parts) {
    if (vars.REDIS_CLUSTER) problems.push('REDIS_CLUSTER needs REDIS_URL (a seed node)');
    return { problems };
  }
  if (vars.REDIS_CLUSTER || parts.scheme.includes('+cluster')) {
    if (parts.db !== 0)
      problems.push('A Redis Cluster has only database 0: REDIS_URL names another');
    return { target: { mode: 'cluster', nodes: parts.hosts, auth: parts.auth }, problems };
  }
  return { target: { mode: 'single', url: vars.REDIS_URL! }, problems };
}
