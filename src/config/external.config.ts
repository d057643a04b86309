import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { type Env, readEnv, toInt } from './env';

export const EXTERNAL_CONFIG = Symbol('EXTERNAL_CONFIG');

class ExternalEnv {
  /** Bound on each call to an external HTTP API (weather, prices); the contract's example is 5 s. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(120_000)
  EXTERNAL_TIMEOUT_MS = 5000;
}

export interface ExternalConfig {
  /** Milliseconds one external call may take, answer body included, before it is aborted. */
  timeoutMs: number;
}

export function loadExternalConfig(env: Env): ExternalConfig {
  return {
    timeoutMs: readEnv(ExternalEnv, env, 'external API configuration').EXTERNAL_TIMEOUT_MS,
  };
}
