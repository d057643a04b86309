import { Logger } from '@nestjs/common';
import { CacheStore, MemoryCacheStore } from './cache.store';
import { ResultCache, type ResultCacheConfig } from './result-cache';

const CONFIG: ResultCacheConfig = { ttlSeconds: 300, prefix: 'cache:' };

/** A store that records what it is asked and can be made to fail. */
class ScriptedStore extends CacheStore {
  readonly entries = new Map<string, string>();
  readonly writes: { key: string; ttlMs: number }[] = [];
  failReads = false;
  failWrites = false;

  get(key: string): Promise<string | undefined> {
    if (this.failReads) return Promise.reject(new Error('store down'));
    return Promise.resolve(this.entries.get(key));
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    if (this.failWrites) return Promise.reject(new Error('store down'));
    this.entries.set(key, value);
    this.writes.push({ key, ttlMs });
    return Promise.resolve();
  }
}

/** A computation the test finishes when it chooses, counting its calls. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const compute = jest.fn(() => promise);
  return { compute, resolve, reject };
}

describe('ResultCache', () => {
  let store: ScriptedStore;
  let cache: ResultCache;

  let debug: jest.SpyInstance;

  beforeEach(() => {
    store = new ScriptedStore();
    cache = new ResultCache(store, CONFIG);
    debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
  });
  afterEach(() => debug.mockRestore());

  it('caches a value holding bigints and dates, answering the same JSON-safe value on miss and hit', async () => {
    const compute = jest.fn(() =>
      Promise.resolve({ balance: 2n ** 80n, at: new Date('2026-01-01T00:00:00.000Z') }),
    );
    const value = { balance: (2n ** 80n).toString(), at: '2026-01-01T00:00:00.000Z' };
    expect(await cache.getOrCompute('balance', compute)).toEqual({ value, cached: false });
    expect(await cache.getOrCompute('balance', compute)).toEqual({ value, cached: true });
    expect(compute).toHaveBeenCalledTimes(1);
    expect(debug).not.toHaveBeenCalled();
  });

  it('computes on a miss, then serves the stored value', async () => {
    const compute = jest.fn(() => Promise.resolve({ temp: 21 }));
    expect(await cache.getOrCompute('weather:paris', compute)).toEqual({
      value: { temp: 21 },
      cached: false,
    });
    expect(await cache.getOrCompute('weather:paris', compute)).toEqual({
      value: { temp: 21 },
      cached: true,
    });
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('keeps keys apart', async () => {
    await cache.getOrCompute('a', () => Promise.resolve(1));
    expect(await cache.getOrCompute('b', () => Promise.resolve(2))).toEqual({
      value: 2,
      cached: false,
    });
  });

  it('stores JSON under the prefixed key with the default or the given TTL', async () => {
    await cache.getOrCompute('a', () => Promise.resolve([1, 'x']));
    await cache.getOrCompute('b', () => Promise.resolve(null), 7);
    expect(store.writes).toEqual([
      { key: 'cache:a', ttlMs: 300_000 },
      { key: 'cache:b', ttlMs: 7_000 },
    ]);
    expect(store.entries.get('cache:a')).toBe('[1,"x"]');
  });

  it('runs one computation for concurrent callers of a key', async () => {
    const { compute, resolve } = deferred<string>();
    const calls = [1, 2, 3].map(() => cache.getOrCompute('slow', compute));
    await new Promise(setImmediate);
    resolve('done');
    const results = await Promise.all(calls);
    expect(compute).toHaveBeenCalledTimes(1);
    expect(results.map((r) => r.value)).toEqual(['done', 'done', 'done']);
    expect(results.filter((r) => !r.cached)).toHaveLength(1);
  });

  it('does not cache errors: every waiter sees the failure, the next call computes again', async () => {
    const { compute, reject } = deferred<string>();
    const calls = [1, 2].map(() => cache.getOrCompute('flaky', compute));
    await new Promise(setImmediate);
    reject(new Error('upstream 500'));
    for (const call of calls) await expect(call).rejects.toThrow('upstream 500');
    expect(store.entries.size).toBe(0);
    const again = jest.fn(() => Promise.resolve('ok'));
    expect(await cache.getOrCompute('flaky', again)).toEqual({ value: 'ok', cached: false });
    expect(again).toHaveBeenCalledTimes(1);
  });

  it('computes when the store cannot be read', async () => {
    store.entries.set('cache:k', '"stale"');
    store.failReads = true;
    expect(await cache.getOrCompute('k', () => Promise.resolve('fresh'))).toEqual({
      value: 'fresh',
      cached: false,
    });
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('store down'));
  });

  it('logs a failing store once, with the key (user text) escaped', async () => {
    store.failReads = true;
    for (let i = 0; i < 20; i++)
      await cache.getOrCompute(`weather:x\nfake log line ${i}`, () => Promise.resolve(i));
    expect(debug).toHaveBeenCalledTimes(1);
    const [line] = debug.mock.calls[0] as [string];
    expect(line).toContain('weather:x\\nfake log line 0');
    expect(line).not.toContain('\n');
  });

  it('answers the computed value when the store cannot be written', async () => {
    store.failWrites = true;
    const compute = jest.fn(() => Promise.resolve(42));
    expect(await cache.getOrCompute('k', compute)).toEqual({ value: 42, cached: false });
    expect(await cache.getOrCompute('k', compute)).toEqual({ value: 42, cached: false });
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('treats an unreadable stored entry as a miss', async () => {
    store.entries.set('cache:k', '{not json');
    expect(await cache.getOrCompute('k', () => Promise.resolve('fresh'))).toEqual({
      value: 'fresh',
      cached: false,
    });
  });
});

describe('ResultCache over the memory store', () => {
  let store: MemoryCacheStore;
  let cache: ResultCache;

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    store = new MemoryCacheStore();
    cache = new ResultCache(store, CONFIG);
  });
  afterEach(() => jest.useRealTimers());

  it('serves an entry until its TTL passes, then computes again', async () => {
    let version = 0;
    const compute = () => Promise.resolve(++version);
    expect(await cache.getOrCompute('k', compute, 10)).toEqual({ value: 1, cached: false });
    jest.advanceTimersByTime(9_000);
    expect(await cache.getOrCompute('k', compute, 10)).toEqual({ value: 1, cached: true });
    jest.advanceTimersByTime(1_001);
    expect(await cache.getOrCompute('k', compute, 10)).toEqual({ value: 2, cached: false });
  });

  it('uses the configured TTL by default', async () => {
    let version = 0;
    const compute = () => Promise.resolve(++version);
    await cache.getOrCompute('k', compute);
    jest.advanceTimersByTime(CONFIG.ttlSeconds * 1000 - 1);
    expect((await cache.getOrCompute('k', compute)).value).toBe(1);
    jest.advanceTimersByTime(2);
    expect((await cache.getOrCompute('k', compute)).value).toBe(2);
  });

  it('computes again for a key the bounded store has let go', async () => {
    const small = new ResultCache(new MemoryCacheStore({ maxEntries: 2 }), CONFIG);
    let version = 0;
    const compute = () => Promise.resolve(++version);
    await small.getOrCompute('a', compute);
    await small.getOrCompute('b', compute);
    await small.getOrCompute('c', compute);
    expect(await small.getOrCompute('a', compute)).toEqual({ value: 4, cached: false });
    expect(await small.getOrCompute('c', compute)).toEqual({ value: 3, cached: true });
  });
});
