import { MemoryThrottlerStorage } from './memory-throttler.storage';

describe('MemoryThrottlerStorage', () => {
  let now: number;
  let storage: MemoryThrottlerStorage;

  beforeEach(() => {
    now = 1_000_000;
    storage = new MemoryThrottlerStorage(() => now);
  });
  afterEach(() => storage.onModuleDestroy());

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

  it('sweeps keys that neither count nor block any more', async () => {
    await storage.increment('a', 1_000, 5, 1_000, 'ip');
    await storage.increment('b', 60_000, 5, 60_000, 'ip');
    now += 1_001;
    storage.sweep();
    expect(storage.size).toBe(1);
  });
});
