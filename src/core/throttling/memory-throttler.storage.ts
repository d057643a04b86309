import type { OnModuleDestroy } from '@nestjs/common';
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

const SWEEP_EVERY_MS = 10_000;

/**
 * Fixed-window counters in process memory: O(1) per request however many hits a key takes (the
 * bundled storage keeps and scans every hit), with the same semantics as the Redis script:
 * over the limit, the key is blocked for `blockDuration`. Expired keys are swept periodically.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS).unref();

  constructor(private readonly now: () => number = Date.now) {}

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
    if (!window || (window.resetAt <= now && window.blockedUntil <= now)) {
      window = { hits: 0, resetAt: now + ttl, blockedUntil: 0 };
      this.windows.set(id, window);
    } else if (window.resetAt <= now) {
      window.hits = 0;
      window.resetAt = now + ttl;
    }
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

  /** Drops windows that neither count nor block any more, so memory follows live keys only. */
  sweep(now = this.now()): void {
    for (const [id, window] of this.windows) {
      if (window.resetAt <= now && window.blockedUntil <= now) this.windows.delete(id);
    }
  }

  get size(): number {
    return this.windows.size;
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }
}
