import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from './validator-subset';
import { type Env, readEnv, toInt } from './env';

/** Injection token of the ExternalConfig the outbound layer reads. */
export const EXTERNAL_CONFIG = Symbol('EXTERNAL_CONFIG');

class ExternalEnv {
  /** Bound on each call to an external HTTP API (weather, prices); the contract's example is 5 s. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(120_000)
  EXTERNAL_TIMEOUT_MS = 5000;

  /** Calls in flight to one upstream host (an API or an RPC node) at a time. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  EXTERNAL_MAX_CONCURRENCY = 16;

  /** Calls waiting for a slot on one host; past it, calls are refused at once (503). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  EXTERNAL_MAX_QUEUE = 64;

  /** Consecutive failures of a host (timeouts, refused connections, 429/502/503/504) that open its circuit. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  EXTERNAL_CIRCUIT_THRESHOLD = 5;

  /** How long an open circuit refuses calls before one probe call is let through. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3_600_000)
  EXTERNAL_CIRCUIT_COOLDOWN_MS = 10_000;
}

/**
 * The bounds every outbound HTTP call runs within (EXTERNAL_*): its deadline, the per-host
 * concurrency and queue, and the circuit breaker. UpstreamBounds applies them.
 */
export interface ExternalConfig {
  /** Milliseconds one external call may take, wait for a slot and answer body included. */
  timeoutMs: number;
  /** Concurrent calls per upstream host. */
  maxConcurrency: number;
  /** Calls per host waiting for a slot; more are refused. */
  maxQueue: number;
  /** Consecutive host failures that open the circuit. */
  circuitThreshold: number;
  /** Milliseconds an open circuit waits before letting a probe through. */
  circuitCooldownMs: number;
}

/**
 * Reads and validates the EXTERNAL_* variables; a bad value stops the boot with a ConfigError
 * naming it.
 */
export function loadExternalConfig(env: Env): ExternalConfig {
  const vars = readEnv(ExternalEnv, env, 'external API configuration');
  return {
    timeoutMs: vars.EXTERNAL_TIMEOUT_MS,
    maxConcurrency: vars.EXTERNAL_MAX_CONCURRENCY,
    maxQueue: vars.EXTERNAL_MAX_QUEUE,
    circuitThreshold: vars.EXTERNAL_CIRCUIT_THRESHOLD,
    circuitCooldownMs: vars.EXTERNAL_CIRCUIT_COOLDOWN_MS,
  };
}
