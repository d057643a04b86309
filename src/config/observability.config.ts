import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength } from './validator-subset';
import { type Env, readEnv, toInt } from './env';

/** Injection token of the ObservabilityConfig. */
export const OBSERVABILITY_CONFIG = Symbol('OBSERVABILITY_CONFIG');

/** pino's levels, most severe first; `silent` writes nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/**
 * A LOG_LEVEL value: one of pino's levels, so the variable is checked against the list the logger
 * accepts.
 */
export type LogLevel = (typeof LOG_LEVELS)[number];

class ObservabilityEnv {
  @IsOptional()
  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  /** Port of the Prometheus listener, apart from the public one; 0: no metrics listener. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT = 9464;

  /**
   * Address the Prometheus listener binds; unset: the public listener's `HOST`, so `HOST=127.0.0.1`
   * keeps metrics on loopback too. `0.0.0.0` is every IPv4 interface.
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  METRICS_HOST?: string;
}

/** Where the Prometheus listener binds: a port of its own, never the public one. */
export interface MetricsListenerConfig {
  port: number;
  host: string;
}

/** Logging and metrics settings (LOG_LEVEL, METRICS_PORT, METRICS_HOST), read once at boot. */
export interface ObservabilityConfig {
  logLevel: LogLevel;
  /** Where `/metrics` is served; undefined when METRICS_PORT=0. */
  metrics?: MetricsListenerConfig;
}

/**
 * `publicPort` is PORT: metrics on the public port would publish them to every client.
 * `publicHost` is HOST, where metrics bind unless METRICS_HOST says otherwise.
 */
export function loadObservabilityConfig(
  env: Env,
  publicPort: number,
  publicHost = '0.0.0.0',
): ObservabilityConfig {
  const vars = readEnv(ObservabilityEnv, env, 'logging and metrics configuration');
  if (vars.METRICS_PORT !== 0 && vars.METRICS_PORT === publicPort) {
    throw new Error(
      `Invalid logging and metrics configuration:\n  - METRICS_PORT=${vars.METRICS_PORT}: ` +
        'must differ from PORT, so metrics are never served on the public port (0 disables them)',
    );
  }
  return {
    logLevel: vars.LOG_LEVEL,
    metrics:
      vars.METRICS_PORT === 0
        ? undefined
        : { port: vars.METRICS_PORT, host: vars.METRICS_HOST ?? publicHost },
  };
}
