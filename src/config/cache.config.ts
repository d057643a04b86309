import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from './validator-subset';
import { type Env, readEnv, toInt } from './env';

/** Injection token of the CacheConfig ResultCache reads. */
export const CACHE_CONFIG = Symbol('CACHE_CONFIG');

class CacheEnv {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  CACHE_TTL_SECONDS = 300;

  /** Results kept in process memory (no REDIS_URL); the store allocates its index up front. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  CACHE_MAX_ENTRIES = 10_000;
}

/**
 * The result cache's settings (CACHE_TTL_SECONDS, CACHE_MAX_ENTRIES): how long ResultCache keeps an
 * answer and how much memory it may hold without Redis.
 */
export interface CacheConfig {
  /** Default lifetime of a cached result. */
  ttlSeconds: number;
  /** Namespace of this service's keys in a shared store. */
  prefix: string;
  /** Most results the in-memory store holds; the least recently used go first. */
  maxEntries: number;
}

/**
 * Reads and validates the cache's variables; a bad value stops the boot with a ConfigError naming
 * it.
 */
export function loadCacheConfig(env: Env): CacheConfig {
  const vars = readEnv(CacheEnv, env, 'cache configuration');
  return {
    ttlSeconds: vars.CACHE_TTL_SECONDS,
    prefix: 'cache:',
    maxEntries: vars.CACHE_MAX_ENTRIES,
  };
}
