import { HttpStatus } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { ActionException } from '../../contract/action.exception';
import type { ThrottlerRecord } from './memory-throttler.storage';

/**
 * Puts the RATE_LIMIT_ON_STORE_ERROR choice around a shared store: when the store fails, either
 * serve the request uncounted (`allow`) or refuse it with 503 (`deny`). The Redis client fails
 * fast, so neither choice waits; RedisStatus logs the outage once.
 */
export class ResilientThrottlerStorage implements ThrottlerStorage {
  constructor(
    private readonly store: ThrottlerStorage,
    private readonly onError: 'allow' | 'deny',
  ) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<ThrottlerRecord> {
    try {
      return await this.store.increment(key, ttl, limit, blockDuration, name);
    } catch {
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
}
