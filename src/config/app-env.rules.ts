import { ValidateBy } from './validator-subset';
import { isIP } from 'node:net';
import { type HostPattern, parseHostPattern } from '../contract/host-syntax';
import { ConfigError } from './env';

/** Rules of the core service's variables that reach across one value (docs/configuration.md). */
interface TimingVars {
  REQUEST_TIMEOUT_MS: number;
  SHUTDOWN_DELAY_MS: number;
  SHUTDOWN_DRAIN_MS: number;
  SHUTDOWN_TIMEOUT_MS: number;
}

/**
 * A comma-separated variable as its entries, trimmed, empty ones dropped: unset and `a, ,b` read
 * the same way everywhere.
 */
export const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * A comma-separated list of host patterns (ALLOWED_HOSTS), parsed; undefined when any entry is not
 * a host pattern, so the validator can refuse the whole value.
 */
export const hostList = (value: string): HostPattern[] | undefined => {
  const patterns = list(value).map(parseHostPattern);
  return patterns.length > 0 && patterns.every(Boolean) ? (patterns as HostPattern[]) : undefined;
};

/**
 * A class-validator rule for ALLOWED_HOSTS: a comma-separated list of hosts or `*.` wildcards,
 * refused at boot when any entry is not one.
 */
export const IsHostList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isHostList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && hostList(value) !== undefined,
      defaultMessage: () =>
        '$property must be a comma-separated list of host names or addresses, each with an optional :port, or *.domain',
    },
  });

/** Node refuses a headers deadline longer than the request deadline. */
export const AtMostRequestTimeout = (): PropertyDecorator =>
  ValidateBy({
    name: 'atMostRequestTimeout',
    validator: {
      validate: (value: unknown, args) =>
        typeof value === 'number' && value <= (args?.object as TimingVars).REQUEST_TIMEOUT_MS,
      defaultMessage: () => '$property must not be greater than REQUEST_TIMEOUT_MS',
    },
  });

/** The delay and the drain come out of the timeout: a shutdown using both must have time left. */
export function checkShutdownTimings(vars: TimingVars): void {
  const { SHUTDOWN_DELAY_MS: delay, SHUTDOWN_DRAIN_MS: drain, SHUTDOWN_TIMEOUT_MS: timeout } = vars;
  if (delay + drain >= timeout) {
    throw new ConfigError([
      `SHUTDOWN_DELAY_MS + SHUTDOWN_DRAIN_MS (${delay} + ${drain}) ` +
        `must be less than SHUTDOWN_TIMEOUT_MS (${timeout})`,
    ]);
  }
}

const parsedUrl = (value: unknown): URL | undefined => {
  try {
    return typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * PUBLIC_BASE_URL is the start of every URL the service publishes (metadata, token URIs): a
 * base, with no credentials to leak, nor a query or a fragment that paths would land after.
 */
export const IsBaseUrl = (): PropertyDecorator =>
  ValidateBy({
    name: 'isBaseUrl',
    validator: {
      validate: (value: unknown) => {
        const url = parsedUrl(value);
        return (
          url !== undefined &&
          url.username === '' &&
          url.password === '' &&
          !/[?#]/.test(value as string)
        );
      },
      defaultMessage: () => '$property must carry no credentials, query or fragment',
    },
  });

/** An origin as browsers send it: scheme, host and optional port; no path, not even `/`. */
const isOrigin = (entry: string): boolean => {
  const url = parsedUrl(entry);
  return url !== undefined && /^https?:$/.test(url.protocol) && url.origin === entry;
};

/**
 * A class-validator rule for ALLOWED_ORIGINS: each entry an origin exactly as browsers send it (no
 * path, no trailing slash), since an entry in any other form would never match a request.
 */
export const IsOriginList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isOriginList',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && list(value).length > 0 && list(value).every(isOrigin),
      defaultMessage: () =>
        '$property must be a comma-separated list of origins as browsers send them ' +
        '(http(s)://host[:port], lower case, no path or trailing slash; leave it unset to allow any)',
    },
  });

/** proxy-addr's names for address ranges, which Fastify's trustProxy accepts too. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const isProxy = (entry: string): boolean => {
  if (PROXY_RANGES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
};

/**
 * A class-validator rule for TRUST_PROXY: `false`, or a comma-separated list of addresses, CIDRs
 * and proxy-addr's range names, so a typo fails the boot instead of trusting the wrong hop.
 */
export const IsProxyList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isProxyList',
    validator: {
      validate: (value: unknown) =>
        value === 'false' ||
        (typeof value === 'string' && list(value).length > 0 && list(value).every(isProxy)),
      defaultMessage: () =>
        '$property must be false or a comma-separated list of IP addresses, CIDRs ' +
        '(10.0.0.0/8) or loopback, linklocal, uniquelocal',
    },
  });
