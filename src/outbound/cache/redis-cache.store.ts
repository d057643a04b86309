import type { RedisClient } from '../../telemetry/redis/redis.provider';
import type { RedisBreaker } from '../../telemetry/redis/redis.provider';
import { CacheStore } from './cache.store';

/** Thrown at once while the breaker is open: the cache treats it as any store failure. */
const SKIPPED = new Error('Redis is not answering: skipped');

/**
 * Cached results shared by every replica; entries expire in Redis itself. While the breaker
 * (RedisStatus) says Redis is out, reads and writes fail at once instead of waiting on it.
 */
export class RedisCacheStore extends CacheStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly breaker?: RedisBreaker,
  ) {
    super();
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.guarded(() => this.redis.get(key))) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.guarded(() => this.redis.set(key, value, 'PX', ttlMs));
  }

  private async guarded<T>(command: () => Promise<T>): Promise<T> {
    if (this.breaker && !this.breaker.usable()) throw SKIPPED;
    try {
      return await command();
    } catch (error) {
      this.breaker?.failed(error);
      throw error;
    }
  }
}
