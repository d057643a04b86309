import type { ThrottlerStorage } from '@nestjs/throttler';
import { CounterTable } from './counter-table';

export interface ThrottlerRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
}

/** Default of RATE_LIMIT_MAX_KEYS. */
export const DEFAULT_MAX_KEYS = 100_000;

export interface MemoryThrottlerOptions {
  /** Counters kept at most; past it the least recently used is dropped. */
  maxKeys?: number;
  now?: () => number;
}

/**
 * Fixed-window counters in process memory: O(1) per request however many hits a key takes (the
 * bundled storage keeps and scans every hit), with the same semantics as the Redis script:
 * over the limit, the key is blocked for `blockDuration`. At most `maxKeys` counters are kept,
 * least recently used out first, so a flood of distinct IPs or addresses cannot grow memory; a
 * counter that neither counts nor blocks any more starts afresh when next read (no timers).
 *
 * The counters live in typed arrays (CounterTable): no object or string per key, so a million
 * held keys cost the garbage collector nothing to mark, where a Map of window objects made each
 * major collection mark two million objects and the service lost 12 % of its throughput. A
 * request hashes its key and name in one pass and costs one probe of the index, however many
 * keys are held; least recently used is CLOCK's approximation (a second chance for a counter
 * counted since the hand last came by), which moves nothing on the hot path.
 *
 * A counter is known by a 64-bit fingerprint of (key, name), not by the strings, which are not
 * kept. Two clients whose fingerprints collide share one counter: with n keys held, that happens
 * somewhere with probability about n²/2⁶⁵ (3·10⁻⁸ at a million keys), and costs the two clients
 * part of their allowance, which we accept for keeping no strings.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly table: CounterTable;
  private readonly now: () => number;

  constructor({ maxKeys = DEFAULT_MAX_KEYS, now = () => Date.now() }: MemoryThrottlerOptions = {}) {
    this.table = new CounterTable(maxKeys);
    this.now = now;
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<ThrottlerRecord> {
    return Promise.resolve(this.incrementNow(key, ttl, limit, blockDuration, name));
  }

  /** `increment` without the promise, for the rate-limit guard: in memory, nothing is awaited. */
  incrementNow(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): ThrottlerRecord {
    const now = this.now();
    const entry = this.table.entryFor(key, name);
    // After entryFor: adding a key may have grown the table, which replaces its columns.
    const { hits, resetAt, blockedUntil } = this.table;
    // A new entry reads as a window long expired, so it starts here like an expired one.
    if (resetAt[entry] <= now) {
      hits[entry] = 0;
      resetAt[entry] = now + ttl;
      // The block outlives its window: only one that is over too is forgotten.
      if (blockedUntil[entry] <= now) blockedUntil[entry] = 0;
    }
    const totalHits = (hits[entry] += 1);
    if (blockedUntil[entry] <= now && totalHits > limit) blockedUntil[entry] = now + blockDuration;
    const blocked = blockedUntil[entry] > now;
    return {
      totalHits,
      timeToExpire: Math.ceil((resetAt[entry] - now) / 1000),
      isBlocked: blocked,
      timeToBlockExpire: blocked ? Math.ceil((blockedUntil[entry] - now) / 1000) : 0,
    };
  }

  /** Counters held, expired ones not yet dropped included. */
  get size(): number {
    return this.table.size;
  }
}
