import type { ThrottlerStorage } from '@nestjs/throttler';

interface Window {
  hits: number;
  resetAt: number;
  blockedUntil: number;
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
 * A Map in recency order (a counter read is moved to its end; the first one is the least
 * recently used) rather than lru-cache with per-entry TTLs: the limits run on every request, and
 * the windows carry their own expiry, so the cache's TTL bookkeeping was pure cost.
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
    const now = this.now();
    const id = `${key}:${name}`;
    let window = this.windows.get(id);
    if (window) {
      // Most recently used: to the end of the order.
      this.windows.delete(id);
      if (window.resetAt <= now && window.blockedUntil <= now) {
        window.hits = 0;
        window.resetAt = now + ttl;
        window.blockedUntil = 0;
      } else if (window.resetAt <= now) {
        window.hits = 0;
        window.resetAt = now + ttl;
      }
    } else {
      window = { hits: 0, resetAt: now + ttl, blockedUntil: 0 };
      if (this.windows.size >= this.maxKeys) this.dropLeastRecent();
    }
    this.windows.set(id, window);
    window.hits += 1;
    if (window.blockedUntil <= now && window.hits > limit)
      window.blockedUntil = now + blockDuration;
    const blocked = window.blockedUntil > now;
    return Promise.resolve({
      totalHits: window.hits,
      timeToExpire: Math.ceil((window.resetAt - now) / 1000),
      isBlocked: blocked,
      timeToBlockExpire: blocked ? Math.ceil((window.blockedUntil - now) / 1000) : 0,
    });
  }

  /** Counters held, expired ones not yet dropped included. */
  get size(): number {
    return this.windows.size;
  }

  private dropLeastRecent(): void {
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}
