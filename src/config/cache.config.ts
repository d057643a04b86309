import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { type Env, readEnv, toInt } from './env';

export const CACHE_CONFIG = Symbol('CACHE_CONFIG');

class CacheEnv {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  CACHE_TTL_SECONDS = 300;
}

export interface CacheConfig {
  /** Default lifetime of a cached result. */
  ttlSeconds: number;
  /** Namespace of this service's keys in a shared store. */
  prefix: string;
}

export function loadCacheConfig(env: Env): CacheConfig {
  return {
    ttlSeconds: readEnv(CacheEnv, env, 'cache configuration').CACHE_TTL_SECONDS,
    prefix: 'cache:',
  };
}
