import type { ThrottlerStorage } from '@nestjs/throttler';
import type { RedisClient } from '../../telemetry/redis/redis.provider';
import type { ThrottleConfig } from '../../config/throttle.config';
import type { RedisBreaker } from '../../telemetry/redis/redis.provider';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { ResilientThrottlerStorage } from './resilient-throttler.storage';
import type * as ScriptedStore from './scripted-redis.storage';

/** Injection token of the counters' store. */
export const THROTTLER_STORE = Symbol('THROTTLER_STORE');

/** Redis counters (atomic; a request's limits in one round trip) when configured, else process memory. */
export function createThrottlerStorage(
  config: ThrottleConfig,
  redis: RedisClient | null,
  breaker?: RedisBreaker,
): ThrottlerStorage {
  if (!redis) return new MemoryThrottlerStorage({ maxKeys: config.maxKeys });
  // A require, not an import: the Redis store (and ioredis under it) loads only when configured.
  const { ScriptedRedisStorage } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('./scripted-redis.storage') as typeof ScriptedStore;
  return new ResilientThrottlerStorage(
    new ScriptedRedisStorage(redis),
    config.onStoreError,
    breaker,
  );
}
