import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerRecord } from './memory-throttler.storage';

// What a store can do beyond ThrottlerStorage, which the rate-limit guard uses when it can.

/** One limit to count: the arguments of ThrottlerStorage#increment. */
export interface LimitCount {
  key: string;
  ttl: number;
  limit: number;
  blockDuration: number;
  name: string;
}

/**
 * A store that counts several limits in one call, the records in the counts' order: for Redis,
 * one round trip where a request's IP and user limits took two.
 */
export interface CountsTogether {
  incrementAll(counts: readonly LimitCount[]): Promise<ThrottlerRecord[]>;
}

export const countsTogether = (
  store: ThrottlerStorage,
): store is ThrottlerStorage & CountsTogether =>
  typeof (store as Partial<CountsTogether>).incrementAll === 'function';

/**
 * A store that can count without a promise (the in-memory one): a limit then costs no microtask,
 * and the guard answers without one when every count is at hand.
 */
export interface CountsNow {
  incrementNow(
    key: string,
    ttl: number,
    limit: number,
    block: number,
    name: string,
  ): ThrottlerRecord;
}

export const countsNow = (store: ThrottlerStorage): store is ThrottlerStorage & CountsNow =>
  typeof (store as Partial<CountsNow>).incrementNow === 'function';
