import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../contract/action.exception';
import { behindBreaker, type RedisBreaker } from '../telemetry/redis/redis.provider';
import type { Fence } from '../follower/follower-state';
import type { TransactionIntent } from './outcome.types';
import type {
  Announcement,
  Created,
  DueIntent,
  IntentStore,
  OpenLimits,
  OutboxEntry,
  StoredIntent,
} from './intent-store';

/**
 * The rate limits' short-circuit, around the Redis intent store: while the breaker (RedisStatus)
 * says Redis is out, every call fails at once instead of waiting on it, and a failed call opens
 * the breaker, so only the first request after an outage waits. Every failure is the 503
 * `SERVICE_UNAVAILABLE` the transaction routes answer, never a 500.
 */
export class ResilientIntentStore implements IntentStore {
  constructor(
    private readonly store: IntentStore,
    private readonly breaker: RedisBreaker,
  ) {}

  create(intent: TransactionIntent, dueAt: number, limits: OpenLimits): Promise<Created> {
    return this.guard(() => this.store.create(intent, dueAt, limits));
  }

  get(id: string): Promise<StoredIntent | undefined> {
    return this.guard(() => this.store.get(id));
  }

  replace(
    current: StoredIntent,
    next: TransactionIntent,
    dueAt: number | null,
    announce?: Announcement,
    fence?: Fence,
  ): Promise<boolean> {
    return this.guard(() => this.store.replace(current, next, dueAt, announce, fence));
  }

  claimDue(now: number, leaseUntil: number, limit: number): Promise<DueIntent[]> {
    return this.guard(() => this.store.claimDue(now, leaseUntil, limit));
  }

  forget(id: string): Promise<void> {
    return this.guard(() => this.store.forget(id));
  }

  outboxTake(now: number, leaseUntil: number, limit: number): Promise<OutboxEntry[]> {
    return this.guard(() => this.store.outboxTake(now, leaseUntil, limit));
  }

  outboxDone(deliveryId: string): Promise<void> {
    return this.guard(() => this.store.outboxDone(deliveryId));
  }

  bindHash(chainId: number, hash: string, id: string): Promise<boolean> {
    return this.guard(() => this.store.bindHash(chainId, hash, id));
  }

  unbindHash(chainId: number, hash: string, id: string): Promise<void> {
    return this.guard(() => this.store.unbindHash(chainId, hash, id));
  }

  recentOf(user: string, limit: number): Promise<StoredIntent[]> {
    return this.guard(() => this.store.recentOf(user, limit));
  }

  openOf(chainId: number, users: readonly string[]): Promise<StoredIntent[]> {
    return this.guard(() => this.store.openOf(chainId, users));
  }

  seenFrom(chainId: number, from: bigint): Promise<StoredIntent[]> {
    return this.guard(() => this.store.seenFrom(chainId, from));
  }

  hasWork(chainIds: readonly number[]): Promise<boolean> {
    return this.guard(() => this.store.hasWork(chainIds));
  }

  trimSeen(chainId: number, below: bigint): Promise<void> {
    return this.guard(() => this.store.trimSeen(chainId, below));
  }

  noteSkipped(chainId: number, from: bigint, to: bigint): Promise<void> {
    return this.guard(() => this.store.noteSkipped(chainId, from, to));
  }

  skippedSince(chainId: number, block: bigint): Promise<boolean> {
    return this.guard(() => this.store.skippedSince(chainId, block));
  }

  private guard<T>(call: () => Promise<T>): Promise<T> {
    return behindBreaker(this.breaker, call, unavailable);
  }
}

/** Where intents are kept is out: the answer says so, and never which store or why. */
export function unavailable(): ActionException {
  return new ActionException(
    HttpStatus.SERVICE_UNAVAILABLE,
    'Transaction intents are unavailable',
    {
      message: 'The service is busy, please try again shortly',
      data: { code: 'SERVICE_UNAVAILABLE' },
      code: 'SERVICE_UNAVAILABLE',
    },
  );
}
