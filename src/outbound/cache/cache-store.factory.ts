import type { RedisClient } from '../../telemetry/redis/redis.provider';
import type { CacheConfig } from '../../config/cache.config';
import type { RedisBreaker } from '../../telemetry/redis/redis.provider';
import { type CacheStore, MemoryCacheStore } from './cache.store';
import { RedisCacheStore } from './redis-cache.store';

/** Redis, shared by every replica, when configured; else process memory, bounded by entries. */
export function createCacheStore(
  config: CacheConfig,
  redis: RedisClient | null,
  breaker?: RedisBreaker,
): CacheStore {
  return redis
    ? new RedisCacheStore(redis, breaker)
    : new MemoryCacheStore({ maxEntries: config.maxEntries });
}
