import { MemoryThrottlerStorage } from './memory-throttler.storage';

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
});
