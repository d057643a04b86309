import { HttpStatus } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { ActionException } from '../contract/action.exception';
import { behindBreaker, type RedisBreaker } from '../telemetry/redis/redis.provider';

/**
 * What payments remember, where the intents live (Redis when REDIS_URL is set, else process
 * memory), each record until its time runs out: the nonces of payments being served or settled
 * (`nonce:<network>:<asset>:<payer>:<nonce>`), so one payment is never served twice, and the
 * payment identifiers (`id:<id>`) with the answer each bought. Values are the callers' text.
 */
export interface PaymentRecords {
  /** Writes the record unless one is there (across replicas): true when this call wrote it. */
  claim(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Overwrites the record (a claim becoming a settled payment). */
  put(key: string, value: string, ttlMs: number): Promise<void>;
  get(key: string): Promise<string | undefined>;
  /** Drops a claim: the payment was not taken (refused action, failed settlement). */
  release(key: string): Promise<void>;
}

export const PAYMENT_RECORDS = Symbol('PAYMENT_RECORDS');

/** The store is out, or full: the answer says so, never which store or why. */
export const recordsUnavailable = (): ActionException =>
  new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'Payments are unavailable', {
    message: 'The service is busy, please try again shortly',
    code: 'SERVICE_UNAVAILABLE',
  });

/**
 * One replica's records, at most `max`: none is dropped before its time (a forgotten nonce could
 * be served again), so with `max` live records a new claim is refused with a 503.
 */
export class MemoryPaymentRecords implements PaymentRecords {
  private readonly records: LRUCache<string, string>;

  constructor(private readonly max: number) {
    this.records = new LRUCache({ max: max + 1 });
  }

  claim(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.records.has(key)) return Promise.resolve(false);
    if (this.records.size >= this.max) this.records.purgeStale();
    if (this.records.size >= this.max) return Promise.reject(recordsUnavailable());
    this.records.set(key, value, { ttl: ttlMs });
    return Promise.resolve(true);
  }

  put(key: string, value: string, ttlMs: number): Promise<void> {
    if (!this.records.has(key) && this.records.size >= this.max) this.records.purgeStale();
    if (!this.records.has(key) && this.records.size >= this.max) {
      return Promise.reject(recordsUnavailable());
    }
    this.records.set(key, value, { ttl: ttlMs });
    return Promise.resolve();
  }

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.records.get(key));
  }

  release(key: string): Promise<void> {
    this.records.delete(key);
    return Promise.resolve();
  }
}

/**
 * Shared by every replica, on the service's Redis client (its key prefix applies), under
 * `x402:`: a claim is SET NX, so of two replicas serving one payment at once only one goes on.
 * Behind the Redis breaker: while Redis is out every call fails at once with a 503.
 */
export class RedisPaymentRecords implements PaymentRecords {
  constructor(
    private readonly redis: Redis,
    private readonly breaker: RedisBreaker,
  ) {}

  claim(key: string, value: string, ttlMs: number): Promise<boolean> {
    return this.guard(
      async () => (await this.redis.set(`x402:${key}`, value, 'PX', ttlMs, 'NX')) === 'OK',
    );
  }

  put(key: string, value: string, ttlMs: number): Promise<void> {
    return this.guard(async () => {
      await this.redis.set(`x402:${key}`, value, 'PX', ttlMs);
    });
  }

  get(key: string): Promise<string | undefined> {
    return this.guard(async () => (await this.redis.get(`x402:${key}`)) ?? undefined);
  }

  release(key: string): Promise<void> {
    return this.guard(async () => {
      await this.redis.del(`x402:${key}`);
    });
  }

  private guard<T>(call: () => Promise<T>): Promise<T> {
    return behindBreaker(this.breaker, call, recordsUnavailable);
  }
}
