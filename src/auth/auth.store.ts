import { HttpStatus } from '@nestjs/common';
import type { RedisClient } from '../telemetry/redis/redis.provider';
import { LRUCache } from 'lru-cache';
import { ActionException } from '../contract/action.exception';
import { behindBreaker, type RedisBreaker } from '../telemetry/redis/redis.provider';

/**
 * What sign-in remembers, where the intents live (Redis when REDIS_URL is set, else process
 * memory): the nonces handed out, each used once, and the revoked sessions until they expire.
 */
export interface AuthStore {
  issueNonce(nonce: string, ttlMs: number): Promise<void>;
  /**
   * Whether the nonce was given and is still unused, without using it: sign-in asks before it
   * spends anything on the signature, and consumes the nonce only once the signature holds.
   */
  hasNonce(nonce: string): Promise<boolean>;
  /** True the first time only, across replicas; false for a nonce unknown, used or expired. */
  consumeNonce(nonce: string): Promise<boolean>;
  /** Puts a session on the deny-list until `ttlMs` from now (when its token expires anyway). */
  revoke(sessionId: string, ttlMs: number): Promise<void>;
  isRevoked(sessionId: string): Promise<boolean>;
}

export const AUTH_STORE = Symbol('AUTH_STORE');

/** The store is out, or full: the answer says so, never which store or why. */
export const unavailable = (): ActionException =>
  new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'Sign-in is unavailable', {
    message: 'The service is busy, please try again shortly',
    code: 'SERVICE_UNAVAILABLE',
  });

/**
 * One replica's nonces and deny-list, each bounded by `max`: the oldest nonces go first (their
 * users ask for another), but a revoked session is never forgotten before it expires: with the
 * deny-list full, logout answers 503 rather than revoke nothing.
 */
export class MemoryAuthStore implements AuthStore {
  private nonceCache?: LRUCache<string, true>;
  private revokedCache?: LRUCache<string, true>;

  constructor(private readonly max: number) {}

  /**
   * Each cache is made at its first use: lru-cache allocates its arrays for `max` entries at once,
   * tens of milliseconds at the default 100,000, which every boot paid (docs/performance.md).
   */
  private get nonces(): LRUCache<string, true> {
    return (this.nonceCache ??= new LRUCache({ max: this.max, ttlAutopurge: false }));
  }

  private get revoked(): LRUCache<string, true> {
    return (this.revokedCache ??= new LRUCache({ max: this.max + 1 }));
  }

  issueNonce(nonce: string, ttlMs: number): Promise<void> {
    this.nonces.set(nonce, true, { ttl: ttlMs });
    return Promise.resolve();
  }

  hasNonce(nonce: string): Promise<boolean> {
    return Promise.resolve(this.nonces.has(nonce));
  }

  consumeNonce(nonce: string): Promise<boolean> {
    const known = this.nonces.get(nonce) === true;
    this.nonces.delete(nonce);
    return Promise.resolve(known);
  }

  revoke(sessionId: string, ttlMs: number): Promise<void> {
    if (this.revoked.size >= this.max) this.revoked.purgeStale();
    if (this.revoked.size >= this.max) return Promise.reject(unavailable());
    this.revoked.set(sessionId, true, { ttl: ttlMs });
    return Promise.resolve();
  }

  isRevoked(sessionId: string): Promise<boolean> {
    return Promise.resolve(this.revoked.get(sessionId) === true);
  }
}

/**
 * Shared by every replica, on the service's Redis client (its key prefix applies):
 * `auth:nonce:<nonce>` until used or expired (DEL says whether it was there: one use, atomically),
 * `auth:revoked:<session>` until the session expires. Behind the Redis breaker: while Redis is
 * out every call fails at once with a 503.
 */
export class RedisAuthStore implements AuthStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly breaker: RedisBreaker,
  ) {}

  issueNonce(nonce: string, ttlMs: number): Promise<void> {
    return this.guard(async () => {
      await this.redis.set(`auth:nonce:${nonce}`, '1', 'PX', ttlMs);
    });
  }

  hasNonce(nonce: string): Promise<boolean> {
    return this.guard(async () => (await this.redis.exists(`auth:nonce:${nonce}`)) === 1);
  }

  consumeNonce(nonce: string): Promise<boolean> {
    return this.guard(async () => (await this.redis.del(`auth:nonce:${nonce}`)) === 1);
  }

  revoke(sessionId: string, ttlMs: number): Promise<void> {
    return this.guard(async () => {
      await this.redis.set(`auth:revoked:${sessionId}`, '1', 'PX', Math.max(1, ttlMs));
    });
  }

  isRevoked(sessionId: string): Promise<boolean> {
    return this.guard(async () => (await this.redis.exists(`auth:revoked:${sessionId}`)) === 1);
  }

  private guard<T>(call: () => Promise<T>): Promise<T> {
    return behindBreaker(this.breaker, call, unavailable);
  }
}
