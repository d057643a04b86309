import type * as RedisStorage from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import type { ThrottleConfig } from '../../config/throttle.config';
import type { RedisBreaker } from '../../telemetry/redis/redis.provider';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { ResilientThrottlerStorage } from './resilient-throttler.storage';

/** Injection token of the counters' store. */
export const THROTTLER_STORE = Symbol('THROTTLER_STORE');

/** Redis counters (atomic, one round trip per limit) when configured, else process memory. */
export function createThrottlerStorage(
  config: ThrottleConfig,
  redis: Redis | null,
  breaker?: RedisBreaker,
): ThrottlerStorage {
  if (!redis) return new MemoryThrottlerStorage({ maxKeys: config.maxKeys });
  // A require, not an import: the Redis store (and ioredis under it) loads only when configured.
  const { ThrottlerStorageRedisService } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@nest-lab/throttler-storage-redis') as typeof RedisStorage;
  return new ResilientThrottlerStorage(
    new ThrottlerStorageRedisService(redis),
    config.onStoreError,
    breaker,
  );
}
