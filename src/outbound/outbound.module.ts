import { Global, Module } from '@nestjs/common';
import type { RedisClient } from '../telemetry/redis/redis.provider';
import { CACHE_CONFIG, type CacheConfig, loadCacheConfig } from '../config/cache.config';
import { ENV } from '../config/env';
import { REDIS, RedisStatus } from '../telemetry/redis/redis.provider';
import { CacheStore } from './cache/cache.store';
import { createCacheStore } from './cache/cache-store.factory';
import { ResultCache } from './cache/result-cache';

/**
 * The result cache every action may use: in memory, or in Redis when REDIS_URL is set. (The
 * bounded HTTP client is imported by the modules that call out: ExternalHttpModule.)
 */
@Global()
@Module({
  providers: [
    { provide: CACHE_CONFIG, useFactory: loadCacheConfig, inject: [ENV] },
    {
      provide: CacheStore,
      inject: [CACHE_CONFIG, REDIS, RedisStatus],
      useFactory: (
        cache: CacheConfig,
        redis: RedisClient | null,
        status: RedisStatus,
      ): CacheStore => createCacheStore(cache, redis, status),
    },
    ResultCache,
  ],
  exports: [CACHE_CONFIG, CacheStore, ResultCache],
})
export class OutboundModule {}
