import type Redis from 'ioredis';
import { CacheStore } from './cache.store';

/** Cached results shared by every replica; entries expire in Redis itself. */
export class RedisCacheStore extends CacheStore {
  constructor(private readonly redis: Redis) {
    super();
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(key)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(key, value, 'PX', ttlMs);
  }
}
