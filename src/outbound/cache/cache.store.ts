import { LRUCache } from 'lru-cache';

/** Where cached results live: process memory by default, Redis when REDIS_URL is set. */
export abstract class CacheStore {
  abstract get(key: string): Promise<string | undefined>;
  abstract set(key: string, value: string, ttlMs: number): Promise<void>;
}

/** Default of CACHE_MAX_ENTRIES. */
export const DEFAULT_MAX_ENTRIES = 10_000;

export interface MemoryCacheOptions {
  /** Entries kept at most; past it the least recently used is dropped. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * In-process store with per-entry expiry, bounded by entries (least recently used out first) so
 * many distinct keys cannot grow memory. An expired entry is dropped when read or pushed out by
 * newer ones, without timers.
 */
export class MemoryCacheStore extends CacheStore {
  private readonly entries: LRUCache<string, string>;

  constructor({
    maxEntries = DEFAULT_MAX_ENTRIES,
    now = () => Date.now(),
  }: MemoryCacheOptions = {}) {
    super();
    // ttlResolution 0: read the clock on each check rather than arm a timer to cache it.
    this.entries = new LRUCache<string, string>({
      max: maxEntries,
      ttlAutopurge: false,
      ttlResolution: 0,
      perf: { now },
    });
  }

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.entries.get(key));
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(key, value, { ttl: Math.max(1, ttlMs) });
    return Promise.resolve();
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }
}
