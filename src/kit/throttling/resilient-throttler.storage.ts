import { HttpStatus } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { ActionException } from '../../contract/action.exception';
import type { RedisBreaker } from '../../telemetry/redis/redis.provider';
import { type CountsTogether, countsTogether, type LimitCount } from './store-abilities';
import type { ThrottlerRecord } from './memory-throttler.storage';

/**
 * Puts the RATE_LIMIT_ON_STORE_ERROR choice around a shared store: when the store fails, either
 * serve the request uncounted (`allow`) or refuse it with 503 (`deny`). The breaker (RedisStatus)
 * makes that choice at once while Redis is out, even when it is connected and silent; a failure
 * opens it, so only the first request waits on a stalled Redis. RedisStatus logs the outage once.
 */
export class ResilientThrottlerStorage implements ThrottlerStorage, CountsTogether {
  constructor(
    private readonly store: ThrottlerStorage,
    private readonly onError: 'allow' | 'deny',
    private readonly breaker?: RedisBreaker,
  ) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<ThrottlerRecord> {
    if (this.breaker && !this.breaker.usable()) return this.unavailable(ttl);
    try {
      return await this.store.increment(key, ttl, limit, blockDuration, name);
    } catch (error) {
      this.breaker?.failed(error);
      return this.unavailable(ttl);
    }
  }

  /** The counts in one call where the store can (Redis), each as `increment` would. */
  async incrementAll(counts: readonly LimitCount[]): Promise<ThrottlerRecord[]> {
    const store = this.store;
    if (!countsTogether(store)) {
      return Promise.all(
        counts.map((c) => this.increment(c.key, c.ttl, c.limit, c.blockDuration, c.name)),
      );
    }
    if (this.breaker && !this.breaker.usable()) return counts.map((c) => this.unavailable(c.ttl));
    try {
      return await store.incrementAll(counts);
    } catch (error) {
      this.breaker?.failed(error);
      return counts.map((c) => this.unavailable(c.ttl));
    }
  }

  private unavailable(ttl: number): ThrottlerRecord {
    if (this.onError === 'deny') {
      throw new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'Rate limiting is unavailable', {
        message: 'The service is busy, please try again shortly',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
    return {
      totalHits: 0,
      timeToExpire: Math.ceil(ttl / 1000),
      isBlocked: false,
      timeToBlockExpire: 0,
    };
  }
}
