import { DEFAULT_MAX_ENTRIES, MemoryCacheStore } from './cache.store';

describe('MemoryCacheStore', () => {
  let now: number;
  const clock = (): number => now;

  beforeEach(() => {
    now = 1_000_000;
  });

  it('serves an entry until its TTL passes, then forgets it', async () => {
    const store = new MemoryCacheStore({ now: clock });
    await store.set('k', 'v', 10_000);
    now += 10_000;
    expect(await store.get('k')).toBe('v');
    now += 1;
    expect(await store.get('k')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('keeps a TTL per entry', async () => {
    const store = new MemoryCacheStore({ now: clock });
    await store.set('short', 's', 1_000);
    await store.set('long', 'l', 600_000);
    now += 60_000;
    expect(await store.get('short')).toBeUndefined();
    expect(await store.get('long')).toBe('l');
  });

  it('never holds more entries than maxEntries, however many keys arrive', async () => {
    const store = new MemoryCacheStore({ maxEntries: 50, now: clock });
    let largest = 0;
    for (let i = 0; i < 18_000; i++) {
      await store.set(`weather:city ${i}`, '{"temperature":12.3}', 300_000);
      largest = Math.max(largest, store.size);
    }
    expect(largest).toBe(50);
    expect(await store.get('weather:city 17999')).toBeDefined();
    expect(await store.get('weather:city 0')).toBeUndefined();
  });

  it('drops the least recently used entry first: one read recently survives', async () => {
    const store = new MemoryCacheStore({ maxEntries: 3, now: clock });
    await store.set('popular', 'p', 300_000);
    await store.set('b', 'b', 300_000);
    await store.set('c', 'c', 300_000);
    expect(await store.get('popular')).toBe('p');
    await store.set('d', 'd', 300_000);
    expect(await store.get('popular')).toBe('p');
    expect(await store.get('b')).toBeUndefined();
  });

  it('holds DEFAULT_MAX_ENTRIES by default', async () => {
    const store = new MemoryCacheStore({ now: clock });
    for (let i = 0; i < DEFAULT_MAX_ENTRIES + 10; i++) await store.set(`k${i}`, 'v', 300_000);
    expect(store.size).toBe(DEFAULT_MAX_ENTRIES);
  });
});
