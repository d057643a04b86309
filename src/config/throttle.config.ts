import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from './validator-subset';
import { type Env, readEnv, toInt } from './env';

/** Injection token of the ThrottleConfig the action throttler reads. */
export const THROTTLE_CONFIG = Symbol('THROTTLE_CONFIG');

class ThrottleEnv {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_IP_MAX = 10;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_IP_WINDOW_SECONDS = 60;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_USER_MAX = 100;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_USER_WINDOW_SECONDS = 3600;

  @IsOptional()
  @IsIn(['action', 'global'])
  RATE_LIMIT_SCOPE = 'action';

  @IsOptional()
  @IsIn(['allow', 'deny'])
  RATE_LIMIT_ON_STORE_ERROR = 'allow';

  /** Counters kept in process memory (no REDIS_URL); the store grows to what this needs. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  RATE_LIMIT_MAX_KEYS = 100_000;
}

/** One rate limit: at most `limit` requests per `ttlSeconds` window. */
export interface Limit {
  limit: number;
  ttlSeconds: number;
}

/**
 * Rate limits of action requests (RATE_LIMIT_*): per client IP and per user address, how they are
 * counted, and what happens when the shared store is down. An action's own `rateLimit` overrides
 * the numbers.
 */
export interface ThrottleConfig {
  ip: Limit;
  user: Limit;
  /** `action`: each action endpoint counts apart; `global`: one count across all actions. */
  scope: 'action' | 'global';
  /** What to do when the shared store is unreachable. */
  onStoreError: 'allow' | 'deny';
  /** Most counters the in-memory store holds; the least recently used go first. */
  maxKeys: number;
}

/**
 * Reads and validates the RATE_LIMIT_* variables; a bad value stops the boot with a ConfigError
 * naming it.
 */
export function loadThrottleConfig(env: Env): ThrottleConfig {
  const vars = readEnv(ThrottleEnv, env, 'rate-limit configuration');
  return {
    ip: { limit: vars.RATE_LIMIT_IP_MAX, ttlSeconds: vars.RATE_LIMIT_IP_WINDOW_SECONDS },
    user: { limit: vars.RATE_LIMIT_USER_MAX, ttlSeconds: vars.RATE_LIMIT_USER_WINDOW_SECONDS },
    scope: vars.RATE_LIMIT_SCOPE as ThrottleConfig['scope'],
    onStoreError: vars.RATE_LIMIT_ON_STORE_ERROR as ThrottleConfig['onStoreError'],
    maxKeys: vars.RATE_LIMIT_MAX_KEYS,
  };
}
