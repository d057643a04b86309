import { ValidateBy } from 'class-validator';
import { type HostPattern, parseHostPattern } from '../contract/host-syntax';

/** Rules of the core service's variables that reach across one value (docs/configuration.md). */
interface TimingVars {
  REQUEST_TIMEOUT_MS: number;
  SHUTDOWN_DELAY_MS: number;
  SHUTDOWN_DRAIN_MS: number;
  SHUTDOWN_TIMEOUT_MS: number;
}

export const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

export const hostList = (value: string): HostPattern[] | undefined => {
  const patterns = list(value).map(parseHostPattern);
  return patterns.length > 0 && patterns.every(Boolean) ? (patterns as HostPattern[]) : undefined;
};

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
    throw new Error(
      `Invalid configuration:\n  - SHUTDOWN_DELAY_MS + SHUTDOWN_DRAIN_MS (${delay} + ${drain}) ` +
        `must be less than SHUTDOWN_TIMEOUT_MS (${timeout})`,
    );
  }
}
