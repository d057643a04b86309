import type { ThrottlerStorage } from '@nestjs/throttler';

interface Window {
  hits: number;
  resetAt: number;
  blockedUntil: number;
  /** Counted since it was last passed over for eviction: it gets a second chance (see below). */
  used: boolean;
}

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
 * A Map in insertion order with a second chance (the CLOCK approximation of least recently
 * used): a count marks its counter used; when a new key needs room, the oldest counter goes
 * unless it was used since it was last looked at, in which case it is moved to the end, unmarked.
 * Nothing moves on the hot path, so a request costs one Map read and a write to its counter,
 * however many keys are held (moving each counted key to the end would churn a Map of a million
 * entries into periodic rehashes), and lru-cache's per-entry TTL bookkeeping is not paid: the
 * windows carry their own expiry.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor({ maxKeys = DEFAULT_MAX_KEYS, now = () => Date.now() }: MemoryThrottlerOptions = {}) {
    this.maxKeys = maxKeys;
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
    const id = `${key}:${name}`;
    let window = this.windows.get(id);
    if (window) {
      window.used = true;
      if (window.resetAt <= now && window.blockedUntil <= now) {
        window.hits = 0;
        window.resetAt = now + ttl;
        window.blockedUntil = 0;
      } else if (window.resetAt <= now) {
        window.hits = 0;
        window.resetAt = now + ttl;
      }
    } else {
      window = { hits: 0, resetAt: now + ttl, blockedUntil: 0, used: false };
      if (this.windows.size >= this.maxKeys) this.dropLeastRecent();
      this.windows.set(id, window);
    }
    window.hits += 1;
    if (window.blockedUntil <= now && window.hits > limit)
      window.blockedUntil = now + blockDuration;
    const blocked = window.blockedUntil > now;
    return {
      totalHits: window.hits,
      timeToExpire: Math.ceil((window.resetAt - now) / 1000),
      isBlocked: blocked,
      timeToBlockExpire: blocked ? Math.ceil((window.blockedUntil - now) / 1000) : 0,
    };
  }

  /** Counters held, expired ones not yet dropped included. */
  get size(): number {
    return this.windows.size;
  }

  /** Drops the oldest counter not used since it was last passed over. */
  private dropLeastRecent(): void {
    for (const [id, window] of this.windows) {
      this.windows.delete(id);
      if (!window.used) return;
      window.used = false;
      this.windows.set(id, window);
    }
  }
}
