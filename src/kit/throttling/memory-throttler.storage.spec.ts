import type { ThrottlerStorage } from '@nestjs/throttler';
import fc from 'fast-check';
import { MemoryThrottlerStorage, type ThrottlerRecord } from './memory-throttler.storage';

/**
 * The store as it was before its counters moved to typed arrays (a Map of windows in insertion
 * order, CLOCK): the reference the new one must match record for record, victim for victim.
 */
class MapThrottlerStorage implements ThrottlerStorage {
  private readonly windows = new Map<
    string,
    { hits: number; resetAt: number; blockedUntil: number; used: boolean }
  >();

  constructor(
    private readonly maxKeys: number,
    private readonly now: () => number,
  ) {}

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
      if (this.windows.size >= this.maxKeys)
        for (const [oldest, held] of this.windows) {
          this.windows.delete(oldest);
          if (!held.used) break;
          held.used = false;
          this.windows.set(oldest, held);
        }
      this.windows.set(id, window);
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

  get size(): number {
    return this.windows.size;
  }
}

describe('MemoryThrottlerStorage', () => {
  let now: number;
  let storage: MemoryThrottlerStorage;

  beforeEach(() => {
    now = 1_000_000;
    storage = new MemoryThrottlerStorage({ now: () => now });
  });

  it('counts hits in a fixed window and blocks past the limit', async () => {
    const records = [];
    for (let i = 0; i < 4; i++) records.push(await storage.increment('k', 60_000, 3, 60_000, 'ip'));
    expect(records.map((r) => r.totalHits)).toEqual([1, 2, 3, 4]);
    expect(records.map((r) => r.isBlocked)).toEqual([false, false, false, true]);
    expect(records[3].timeToBlockExpire).toBe(60);
    expect(records[0].timeToExpire).toBe(60);
  });

  it('starts a new window once the old one and its block have expired', async () => {
    for (let i = 0; i < 4; i++) await storage.increment('k', 60_000, 3, 60_000, 'ip');
    now += 30_000;
    expect((await storage.increment('k', 60_000, 3, 60_000, 'ip')).isBlocked).toBe(true);
    now += 30_001;
    const fresh = await storage.increment('k', 60_000, 3, 60_000, 'ip');
    expect(fresh).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('keeps blocking past the end of the window while the block lasts', async () => {
    for (let i = 0; i < 3; i++) await storage.increment('k', 1_000, 2, 60_000, 'ip');
    now += 30_000;
    const during = await storage.increment('k', 1_000, 2, 60_000, 'ip');
    expect(during).toMatchObject({ totalHits: 1, isBlocked: true, timeToBlockExpire: 30 });
    now += 30_000;
    expect((await storage.increment('k', 1_000, 2, 60_000, 'ip')).isBlocked).toBe(false);
  });

  it('blocks again a key still over the limit when its block ends within the window', async () => {
    for (let i = 0; i < 2; i++) await storage.increment('k', 3_000, 1, 1_000, 'ip');
    now += 1_000;
    expect(await storage.increment('k', 3_000, 1, 1_000, 'ip')).toEqual({
      totalHits: 3,
      timeToExpire: 2,
      isBlocked: true,
      timeToBlockExpire: 1,
    });
  });

  it('keeps names and keys apart', async () => {
    await storage.increment('k', 60_000, 1, 60_000, 'ip');
    expect((await storage.increment('k', 60_000, 1, 60_000, 'user')).totalHits).toBe(1);
    expect((await storage.increment('other', 60_000, 1, 60_000, 'ip')).totalHits).toBe(1);
  });

  it('stores one counter per key however many hits it takes', async () => {
    for (let i = 0; i < 60_000; i++) await storage.increment('proxy-ip', 60_000, 10, 60_000, 'ip');
    expect(storage.size).toBe(1);
    expect((await storage.increment('proxy-ip', 60_000, 10, 60_000, 'ip')).totalHits).toBe(60_001);
  });

  it('never holds more counters than maxKeys, however many keys arrive', async () => {
    const capped = new MemoryThrottlerStorage({ maxKeys: 100, now: () => now });
    let largest = 0;
    for (let i = 0; i < 5_000; i++) {
      await capped.increment(`10.0.${i >> 8}.${i & 255}`, 3_600_000, 100, 3_600_000, 'ip');
      largest = Math.max(largest, capped.size);
    }
    expect(largest).toBe(100);
  });

  it('drops the least recently used counter first: a key in use survives a flood', async () => {
    const capped = new MemoryThrottlerStorage({ maxKeys: 3, now: () => now });
    await capped.increment('busy', 60_000, 5, 60_000, 'ip');
    await capped.increment('b', 60_000, 5, 60_000, 'ip');
    await capped.increment('c', 60_000, 5, 60_000, 'ip');
    await capped.increment('busy', 60_000, 5, 60_000, 'ip');
    await capped.increment('d', 60_000, 5, 60_000, 'ip');
    expect((await capped.increment('busy', 60_000, 5, 60_000, 'ip')).totalHits).toBe(3);
    expect((await capped.increment('b', 60_000, 5, 60_000, 'ip')).totalHits).toBe(1);
  });

  it('keeps every counter exact while the table grows', async () => {
    const hitsOf = (i: number): number => (i % 5) + 1;
    for (let round = 1; round <= 5; round++)
      for (let i = 0; i < 50_000; i++)
        if (hitsOf(i) >= round) await storage.increment(`client ${i}`, 60_000, 10, 60_000, 'ip');
    expect(storage.size).toBe(50_000);
    for (let i = 0; i < 50_000; i++)
      expect((await storage.increment(`client ${i}`, 60_000, 10, 60_000, 'ip')).totalHits).toBe(
        hitsOf(i) + 1,
      );
  });

  it('keeps a key with a colon apart from a name with one', async () => {
    await storage.increment('a:b', 60_000, 5, 60_000, 'c');
    expect((await storage.increment('a', 60_000, 5, 60_000, 'b:c')).totalHits).toBe(1);
  });

  it('answers as the Map-based store did, record for record, at any cap', async () => {
    const call = fc.record({
      key: fc.constantFrom('', 'a', 'b', '10.0.0.1', 'ffff'),
      name: fc.constantFrom('ip', 'user'),
      // Round steps land exactly on the ends of windows and blocks.
      advance: fc.oneof(fc.constantFrom(0, 500, 1_000, 2_000), fc.integer({ min: 1, max: 2_500 })),
      ttl: fc.constantFrom(1_000, 3_000),
      limit: fc.integer({ min: 1, max: 4 }),
      blockDuration: fc.constantFrom(0, 1_000, 5_000),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.array(call, { maxLength: 200 }),
        async (maxKeys, calls) => {
          let clock = 1_000_000;
          const store = new MemoryThrottlerStorage({ maxKeys, now: () => clock });
          const model = new MapThrottlerStorage(maxKeys, () => clock);
          for (const { key, name, advance, ttl, limit, blockDuration } of calls) {
            clock += advance;
            expect(await store.increment(key, ttl, limit, blockDuration, name)).toEqual(
              await model.increment(key, ttl, limit, blockDuration, name),
            );
            expect(store.size).toBe(model.size);
            expect(store.size).toBeLessThanOrEqual(maxKeys);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
