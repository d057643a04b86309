import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { type Env, readEnv, toInt } from './env';

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
}

export interface Limit {
  limit: number;
  ttlSeconds: number;
}

export interface ThrottleConfig {
  ip: Limit;
  user: Limit;
  /** `action`: each action endpoint counts apart; `global`: one count across all actions. */
  scope: 'action' | 'global';
  /** What to do when the shared store is unreachable. */
  onStoreError: 'allow' | 'deny';
}

export function loadThrottleConfig(env: Env): ThrottleConfig {
  const vars = readEnv(ThrottleEnv, env, 'rate-limit configuration');
  return {
    ip: { limit: vars.RATE_LIMIT_IP_MAX, ttlSeconds: vars.RATE_LIMIT_IP_WINDOW_SECONDS },
    user: { limit: vars.RATE_LIMIT_USER_MAX, ttlSeconds: vars.RATE_LIMIT_USER_WINDOW_SECONDS },
    scope: vars.RATE_LIMIT_SCOPE as ThrottleConfig['scope'],
    onStoreError: vars.RATE_LIMIT_ON_STORE_ERROR as ThrottleConfig['onStoreError'],
  };
}
