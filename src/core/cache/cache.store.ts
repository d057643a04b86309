import type { OnModuleDestroy } from '@nestjs/common';

/** Where cached results live: process memory by default, Redis when REDIS_URL is set. */
export abstract class CacheStore {
  abstract get(key: string): Promise<string | undefined>;
  abstract set(key: string, value: string, ttlMs: number): Promise<void>;
}

interface Entry {
  value: string;
  expiresAt: number;
}

const SWEEP_EVERY_MS = 60_000;

/** In-process store with per-entry expiry; a periodic sweep keeps memory bounded. */
export class MemoryCacheStore extends CacheStore implements OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS).unref();

  get(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > Date.now()) return Promise.resolve(entry.value);
    if (entry) this.entries.delete(key);
    return Promise.resolve(undefined);
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: Date.now() + ttlMs });
    return Promise.resolve();
  }

  sweep(now = Date.now()): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }
}
